import { type Kysely, sql } from 'kysely';

/**
 * Self-serve SSO setup links: a one-time link for a team's IT admin, exchanged once for a setup session of
 * the same team. Both secrets are kept as digests only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sso_setup_link')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('team_id', 'uuid', (column) => column.notNull().references('team.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('used_at', 'timestamptz')
    .addColumn('session_token_hash', 'text', (column) => column.unique())
    .addColumn('session_expires_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('sso_setup_link_team_idx').on('sso_setup_link').columns(['project_id', 'team_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sso_setup_link').execute();
}
