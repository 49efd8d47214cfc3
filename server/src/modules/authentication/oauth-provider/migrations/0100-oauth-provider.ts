import { type Kysely, sql } from 'kysely';

/**
 * The project as an OAuth 2.1 / OpenID provider (issue #35): its applications (clients), the protocol state
 * oidc-provider keeps (codes, tokens, grants, interactions: one row per entity, payload as JSON), its ES256
 * signing keys (sealed), the consents users gave per application, and the owner's settings.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oauth_application')
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (column) => column.notNull())
    .addColumn('client_secret', 'text')
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('redirect_uris', 'jsonb', (column) => column.notNull())
    .addColumn('grant_types', 'jsonb', (column) => column.notNull())
    .addColumn('scopes', 'jsonb', (column) => column.notNull())
    .addColumn('logo_url', 'text')
    .addColumn('registered_dynamically', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('oauth_application_pkey', ['project_id', 'client_id'])
    .execute();

  await db.schema
    .createTable('oauth_provider_entity')
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('model', 'text', (column) => column.notNull())
    .addColumn('id', 'text', (column) => column.notNull())
    .addColumn('payload', 'jsonb', (column) => column.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('uid', 'text')
    .addColumn('client_id', 'text')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('consumed_at', 'timestamptz')
    .addPrimaryKeyConstraint('oauth_provider_entity_pkey', ['project_id', 'model', 'id'])
    .execute();
  await db.schema.createIndex('oauth_provider_entity_grant').on('oauth_provider_entity').columns(['project_id', 'grant_id']).execute();
  await db.schema.createIndex('oauth_provider_entity_uid').on('oauth_provider_entity').columns(['project_id', 'uid']).execute();
  await db.schema.createIndex('oauth_provider_entity_expiry').on('oauth_provider_entity').column('expires_at').execute();

  await db.schema
    .createTable('oauth_provider_key')
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('kid', 'text', (column) => column.notNull())
    .addColumn('private_jwk', 'text', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('retired_at', 'timestamptz')
    .addPrimaryKeyConstraint('oauth_provider_key_pkey', ['project_id', 'kid'])
    .execute();

  await db.schema
    .createTable('oauth_consent')
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (column) => column.notNull().references('project_user.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (column) => column.notNull())
    .addColumn('scopes', 'jsonb', (column) => column.notNull())
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('oauth_consent_pkey', ['project_id', 'user_id', 'client_id'])
    .addForeignKeyConstraint(
      'oauth_consent_application',
      ['project_id', 'client_id'],
      'oauth_application',
      ['project_id', 'client_id'],
      (constraint) => constraint.onDelete('cascade'),
    )
    .execute();

  await db.schema
    .createTable('oauth_provider_settings')
    .addColumn('project_id', 'text', (column) => column.primaryKey().references('project.id').onDelete('cascade'))
    .addColumn('consent_page_url', 'text')
    .addColumn('allow_dynamic_registration', 'boolean', (column) => column.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['oauth_provider_settings', 'oauth_consent', 'oauth_provider_key', 'oauth_provider_entity', 'oauth_application']) {
    await db.schema.dropTable(table).execute();
  }
}
