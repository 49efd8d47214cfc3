import { type Kysely, sql } from 'kysely';

/**
 * Indexes for the expired-rows cleanup (modules/administration/maintenance): each batch finds its rows by expiry
 * instead of scanning the table. Deleting sessions nulls `cli_login_attempt.anon_session_id`, which
 * the last index finds.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index verification_code_expires_idx on verification_code (expires_at)`.execute(db);
  await sql`create index refresh_session_expires_idx on refresh_session (expires_at)`.execute(db);
  await sql`create index cli_login_attempt_expires_idx on cli_login_attempt (expires_at)`.execute(db);
  await sql`create index oauth_flow_expires_idx on oauth_flow (expires_at)`.execute(db);
  await sql`create index oauth_authorization_code_expires_idx on oauth_authorization_code (expires_at)`.execute(db);
  await sql`create index oauth_provider_token_access_expires_idx on oauth_provider_token (expires_at) where kind = 'access'`.execute(db);
  await sql`create index cli_login_attempt_anon_session_idx on cli_login_attempt (anon_session_id) where anon_session_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [
    'cli_login_attempt_anon_session_idx',
    'oauth_provider_token_access_expires_idx',
    'oauth_authorization_code_expires_idx',
    'oauth_flow_expires_idx',
    'cli_login_attempt_expires_idx',
    'refresh_session_expires_idx',
    'verification_code_expires_idx',
  ]) {
    await sql`drop index ${sql.id(index)}`.execute(db);
  }
}
