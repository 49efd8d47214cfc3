import { type Kysely, sql } from 'kysely';

/**
 * OAuth sign-in: a user's linked provider accounts, the provider tokens kept for connected accounts
 * (sealed with a key derived from the server secret), the outer flows between authorize and
 * callback, and the authorization codes the callback hands to the app.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oauth_account')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (column) => column.notNull().references('project_user.id').onDelete('cascade'))
    .addColumn('provider_config_id', 'text', (column) => column.notNull())
    .addColumn('provider_type', 'text', (column) => column.notNull())
    .addColumn('account_id', 'text', (column) => column.notNull())
    .addColumn('email', 'text')
    .addColumn('allow_sign_in', 'boolean', (column) => column.notNull())
    .addColumn('allow_connected_accounts', 'boolean', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  // A provider account signs in one user; a user links an account once, and signs in with one account per provider type.
  await sql`create unique index oauth_account_sign_in_idx on oauth_account (project_id, provider_config_id, account_id) where allow_sign_in`.execute(
    db,
  );
  await sql`create unique index oauth_account_user_account_idx on oauth_account (user_id, provider_config_id, account_id)`.execute(db);
  await sql`create unique index oauth_account_user_type_idx on oauth_account (user_id, provider_type) where allow_sign_in`.execute(db);
  await sql`create index oauth_account_lookup_idx on oauth_account (project_id, provider_config_id, account_id)`.execute(db);

  await db.schema
    .createTable('oauth_provider_token')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('oauth_account_id', 'uuid', (column) => column.notNull().references('oauth_account.id').onDelete('cascade'))
    .addColumn('kind', 'text', (column) => column.notNull().check(sql`kind in ('access', 'refresh')`))
    .addColumn('sealed_value', 'text', (column) => column.notNull())
    .addColumn('scopes', sql`text[]`, (column) => column.notNull())
    .addColumn('expires_at', 'timestamptz')
    .addColumn('is_valid', 'boolean', (column) => column.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('oauth_provider_token_account_idx')
    .on('oauth_provider_token')
    .columns(['oauth_account_id', 'kind'])
    .execute();

  await db.schema
    .createTable('oauth_flow')
    .addColumn('inner_state', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('provider_config_id', 'text', (column) => column.notNull())
    .addColumn('data', 'jsonb', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('oauth_authorization_code')
    .addColumn('code_hash', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (column) => column.notNull().references('project_user.id').onDelete('cascade'))
    .addColumn('redirect_uri', 'text', (column) => column.notNull())
    .addColumn('code_challenge', 'text', (column) => column.notNull())
    .addColumn('is_new_user', 'boolean', (column) => column.notNull())
    .addColumn('after_callback_redirect_url', 'text')
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('oauth_authorization_code').execute();
  await db.schema.dropTable('oauth_flow').execute();
  await db.schema.dropTable('oauth_provider_token').execute();
  await db.schema.dropTable('oauth_account').execute();
}
