import { type Kysely, sql } from 'kysely';

/**
 * CLI logins (docs/protocol/endpoints.md §9): both codes stored as digests; the browser's completion records the
 * user, and the CLI's successful poll creates that user's session, so no refresh token is stored.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('cli_login_attempt')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('polling_code_hash', 'text', (column) => column.notNull().unique())
    .addColumn('login_code_hash', 'text', (column) => column.notNull().unique())
    .addColumn('anon_session_id', 'uuid', (column) => column.references('refresh_session.id').onDelete('set null'))
    .addColumn('user_id', 'uuid', (column) => column.references('project_user.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .addColumn('completed_at', 'timestamptz')
    .addColumn('used_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('cli_login_attempt').execute();
}
