import { type Kysely, sql } from 'kysely';

/** Email drafts: a TSX template kept for one sending (`/internal/email-drafts`, send-email `draft_id`). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('email_draft')
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('id', 'uuid', (column) => column.notNull())
    .addColumn('display_name', 'text', (column) => column.notNull())
    .addColumn('tsx_source', 'text', (column) => column.notNull())
    // null: the project's selected theme; 'none': no theme; otherwise a theme id.
    .addColumn('theme', 'text')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('email_draft_pk', ['project_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('email_draft').execute();
}
