import { type Kysely, sql } from 'kysely';

/** SCIM 2.0 directories of teams, the users and groups provisioned through them. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('scim_directory')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('team_id', 'uuid', (column) => column.notNull().references('team.id').onDelete('cascade'))
    .addColumn('display_name', 'text', (column) => column.notNull())
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('scim_directory_team_idx').on('scim_directory').columns(['project_id', 'team_id']).execute();
  await db.schema
    .createTable('scim_user')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('directory_id', 'uuid', (column) => column.notNull().references('scim_directory.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (column) => column.notNull().references('project_user.id').onDelete('cascade'))
    .addColumn('user_name', 'text', (column) => column.notNull())
    .addColumn('external_id', 'text')
    .addColumn('active', 'boolean', (column) => column.notNull())
    .addColumn('resource', 'jsonb', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .execute();
  // userName is unique in a directory, case-insensitively (RFC 7643 §4.1.1), among users not deprovisioned.
  await sql`create unique index scim_user_name_uq on scim_user (directory_id, lower(user_name)) where deleted_at is null`.execute(db);
  await sql`create unique index scim_user_user_uq on scim_user (directory_id, user_id) where deleted_at is null`.execute(db);
  await db.schema
    .createTable('scim_group')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('directory_id', 'uuid', (column) => column.notNull().references('scim_directory.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('display_name', 'text', (column) => column.notNull())
    .addColumn('external_id', 'text')
    .addColumn('member_ids', 'jsonb', (column) => column.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index scim_group_name_uq on scim_group (directory_id, lower(display_name))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('scim_group').execute();
  await db.schema.dropTable('scim_user').execute();
  await db.schema.dropTable('scim_directory').execute();
}
