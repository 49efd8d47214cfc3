import { type Kysely, sql } from 'kysely';

/** Users, their contact channels, sessions, verification codes, the email outbox and events. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('project_user')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('display_name', 'text')
    .addColumn('profile_image_url', 'text')
    .addColumn('signed_up_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('last_active_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('client_metadata', 'jsonb')
    .addColumn('client_read_only_metadata', 'jsonb')
    .addColumn('server_metadata', 'jsonb')
    .addColumn('is_anonymous', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('password_hash', 'text')
    .addColumn('otp_auth_enabled', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('totp_secret', 'bytea')
    .addColumn('selected_team_id', 'uuid')
    .addColumn('restricted_by_admin', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('restricted_by_admin_reason', 'text')
    .addColumn('restricted_by_admin_private_details', 'text')
    .addColumn('country_code', 'text')
    .addColumn('risk_scores', 'jsonb')
    .addColumn('sign_up_method', 'text')
    .execute();
  // Keyset pagination by (signed_up_at, id) within a project, and counts per project.
  await db.schema.createIndex('project_user_signed_up_idx').on('project_user').columns(['project_id', 'signed_up_at', 'id']).execute();

  await db.schema
    .createTable('contact_channel')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (column) => column.notNull().references('project_user.id').onDelete('cascade'))
    .addColumn('type', 'text', (column) => column.notNull().defaultTo('email'))
    .addColumn('value', 'text', (column) => column.notNull())
    .addColumn('is_verified', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('is_primary', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('used_for_auth', 'boolean', (column) => column.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index contact_channel_auth_value_idx on contact_channel (project_id, type, lower(value)) where used_for_auth`.execute(
    db,
  );
  await sql`create unique index contact_channel_primary_idx on contact_channel (user_id) where is_primary`.execute(db);
  await sql`create unique index contact_channel_user_value_idx on contact_channel (user_id, type, lower(value))`.execute(db);
  await sql`create index contact_channel_value_idx on contact_channel (project_id, lower(value))`.execute(db);

  await db.schema
    .createTable('refresh_session')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (column) => column.notNull().references('project_user.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('previous_token_hash', 'text')
    .addColumn('rotated_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .addColumn('last_used_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_ip', 'text')
    .addColumn('is_impersonation', 'boolean', (column) => column.notNull().defaultTo(false))
    .execute();
  await db.schema.createIndex('refresh_session_user_idx').on('refresh_session').column('user_id').execute();
  await sql`create unique index refresh_session_previous_hash_idx on refresh_session (previous_token_hash) where previous_token_hash is not null`.execute(
    db,
  );

  await db.schema
    .createTable('verification_code')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (column) => column.notNull())
    .addColumn('nonce', 'text', (column) => column.notNull().unique())
    .addColumn('code_hash', 'text', (column) => column.notNull())
    .addColumn('data', 'jsonb', (column) => column.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('email_outbox')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('to_address', 'text', (column) => column.notNull())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('subject', 'text', (column) => column.notNull())
    .addColumn('html', 'text', (column) => column.notNull())
    .addColumn('text', 'text', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('email_outbox_project_idx').on('email_outbox').columns(['project_id', 'created_at']).execute();

  await db.schema
    .createTable('event')
    .addColumn('id', 'bigserial', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('data', 'jsonb', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('event_project_idx').on('event').columns(['project_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['event', 'email_outbox', 'verification_code', 'refresh_session', 'contact_channel', 'project_user']) {
    await db.schema.dropTable(table).execute();
  }
}
