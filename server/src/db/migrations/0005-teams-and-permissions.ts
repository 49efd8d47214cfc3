import { type Kysely, sql } from 'kysely';

/** Teams, memberships (with the member's team profile), permission definitions (a DAG) and grants. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('team')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('display_name', 'text', (column) => column.notNull())
    .addColumn('profile_image_url', 'text')
    .addColumn('client_metadata', 'jsonb')
    .addColumn('client_read_only_metadata', 'jsonb')
    .addColumn('server_metadata', 'jsonb')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('team_project_idx').on('team').columns(['project_id', 'created_at']).execute();

  await db.schema
    .createTable('team_member')
    .addColumn('team_id', 'uuid', (column) => column.notNull().references('team.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (column) => column.notNull().references('project_user.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('display_name', 'text')
    .addColumn('profile_image_url', 'text')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('team_member_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_member_user_idx').on('team_member').column('user_id').execute();

  await sql`alter table project_user add constraint project_user_selected_team_fk foreign key (selected_team_id) references team(id) on delete set null`.execute(
    db,
  );

  await db.schema
    .createTable('permission_definition')
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('scope', 'text', (column) => column.notNull().check(sql`scope in ('team', 'project')`))
    .addColumn('id', 'text', (column) => column.notNull())
    .addColumn('description', 'text')
    .addColumn('contained_ids', sql`text[]`, (column) => column.notNull().defaultTo(sql`'{}'`))
    .addPrimaryKeyConstraint('permission_definition_pk', ['project_id', 'scope', 'id'])
    .execute();

  await db.schema
    .createTable('team_permission_grant')
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('team_id', 'uuid', (column) => column.notNull())
    .addColumn('user_id', 'uuid', (column) => column.notNull())
    .addColumn('permission_id', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('team_permission_grant_pk', ['team_id', 'user_id', 'permission_id'])
    .addForeignKeyConstraint(
      'team_permission_grant_member_fk',
      ['team_id', 'user_id'],
      'team_member',
      ['team_id', 'user_id'],
      (constraint) => constraint.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('team_permission_grant_project_idx')
    .on('team_permission_grant')
    .columns(['project_id', 'permission_id'])
    .execute();

  await db.schema
    .createTable('project_permission_grant')
    .addColumn('project_id', 'text', (column) => column.notNull())
    .addColumn('user_id', 'uuid', (column) => column.notNull().references('project_user.id').onDelete('cascade'))
    .addColumn('permission_id', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('project_permission_grant_pk', ['user_id', 'permission_id'])
    .execute();
  await db.schema
    .createIndex('project_permission_grant_project_idx')
    .on('project_permission_grant')
    .columns(['project_id', 'permission_id'])
    .execute();

  // Every project starts with the two team roles the default config grants.
  await sql`
    insert into permission_definition (project_id, scope, id, description, contained_ids)
    select id, 'team', 'team_admin', 'Manage the team, its members and its API keys',
      array['$update_team', '$delete_team', '$read_members', '$remove_members', '$invite_members', '$manage_api_keys']
    from project
    union all
    select id, 'team', 'team_member', 'See the other members', array['$read_members'] from project`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table project_user drop constraint project_user_selected_team_fk`.execute(db);
  for (const table of ['project_permission_grant', 'team_permission_grant', 'permission_definition', 'team_member', 'team']) {
    await db.schema.dropTable(table).execute();
  }
}
