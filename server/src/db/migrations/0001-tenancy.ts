import { type Kysely, sql } from 'kysely';

/** Projects, their API key sets, and the server secret the signing keys derive from. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('server_secret')
    .addColumn('id', 'integer', (column) => column.primaryKey().defaultTo(1).check(sql`id = 1`))
    .addColumn('secret', 'bytea', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('project')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('display_name', 'text', (column) => column.notNull())
    .addColumn('description', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('is_production_mode', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('owner_team_id', 'uuid')
    .addColumn('config_override', 'jsonb', (column) => column.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();

  await db.schema
    .createTable('api_key_set')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('description', 'text', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .addColumn('manually_revoked_at', 'timestamptz')
    .addColumn('publishable_client_key_hash', 'text')
    .addColumn('publishable_client_key_last_four', 'text')
    .addColumn('secret_server_key_hash', 'text')
    .addColumn('secret_server_key_last_four', 'text')
    .addColumn('super_secret_admin_key_hash', 'text')
    .addColumn('super_secret_admin_key_last_four', 'text')
    .execute();

  // Keys are looked up by digest on every authenticated request.
  for (const kind of ['publishable_client_key', 'secret_server_key', 'super_secret_admin_key']) {
    await db.schema
      .createIndex(`api_key_set_${kind}_hash_idx`)
      .on('api_key_set')
      .column(`${kind}_hash`)
      .unique()
      .where(sql.ref(`${kind}_hash`), 'is not', null)
      .execute();
  }
  await db.schema.createIndex('api_key_set_project_idx').on('api_key_set').column('project_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_key_set').execute();
  await db.schema.dropTable('project').execute();
  await db.schema.dropTable('server_secret').execute();
}
