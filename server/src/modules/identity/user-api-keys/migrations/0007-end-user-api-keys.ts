import { type Kysely, sql } from 'kysely';

/** API keys of end users and teams (not the project's own key sets), stored as digests. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('end_user_api_key')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('type', 'text', (column) => column.notNull().check(sql`type in ('user', 'team')`))
    .addColumn('user_id', 'uuid', (column) => column.references('project_user.id').onDelete('cascade'))
    .addColumn('team_id', 'uuid', (column) => column.references('team.id').onDelete('cascade'))
    .addColumn('description', 'text', (column) => column.notNull())
    .addColumn('is_public', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz')
    .addColumn('manually_revoked_at', 'timestamptz')
    .addColumn('key_hash', 'text', (column) => column.notNull().unique())
    .addColumn('last_four', 'text', (column) => column.notNull())
    .addCheckConstraint(
      'end_user_api_key_owner',
      sql`(type = 'user' and user_id is not null and team_id is null) or (type = 'team' and team_id is not null and user_id is null)`,
    )
    .execute();
  await db.schema.createIndex('end_user_api_key_user_idx').on('end_user_api_key').column('user_id').execute();
  await db.schema.createIndex('end_user_api_key_team_idx').on('end_user_api_key').column('team_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('end_user_api_key').execute();
}
