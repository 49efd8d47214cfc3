import type { Kysely } from 'kysely';

/**
 * The team permissions a SCIM directory granted because of its groups (through the team's SSO group mapping):
 * what it may take back when a user leaves the groups that grant one, and nothing else.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('scim_permission_grant')
    .addColumn('directory_id', 'uuid', (column) => column.notNull().references('scim_directory.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('team_id', 'uuid', (column) => column.notNull())
    .addColumn('user_id', 'uuid', (column) => column.notNull())
    .addColumn('permission_id', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('scim_permission_grant_pk', ['directory_id', 'user_id', 'permission_id'])
    .execute();
  await db.schema
    .createIndex('scim_permission_grant_member_idx')
    .on('scim_permission_grant')
    .columns(['project_id', 'team_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('scim_permission_grant').execute();
}
