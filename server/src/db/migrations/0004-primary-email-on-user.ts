import { type Kysely, sql } from 'kysely';

/**
 * The primary email, its verification and auth flag, copied onto the user row by a trigger on
 * contact_channel: every user read (each request with a user token, each refresh) becomes a single
 * row lookup, and no code path can let the copy drift from the channels.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('project_user')
    .addColumn('primary_email', 'text')
    .addColumn('primary_email_verified', 'boolean')
    .addColumn('primary_email_auth_enabled', 'boolean')
    .execute();
  await sql`
    create function sync_primary_email(target uuid) returns void language sql as $$
      update project_user u set
        primary_email = c.value, primary_email_verified = c.is_verified, primary_email_auth_enabled = c.used_for_auth
      from (select null::int) dummy
      left join contact_channel c on c.user_id = target and c.is_primary
      where u.id = target
    $$`.execute(db);
  await sql`
    create function contact_channel_sync_primary() returns trigger language plpgsql as $$
    begin
      if tg_op in ('UPDATE', 'DELETE') then perform sync_primary_email(old.user_id); end if;
      if tg_op in ('INSERT', 'UPDATE') then perform sync_primary_email(new.user_id); end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger contact_channel_sync_primary after insert or update or delete on contact_channel
    for each row execute function contact_channel_sync_primary()`.execute(db);
  await sql`select sync_primary_email(id) from project_user`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger contact_channel_sync_primary on contact_channel`.execute(db);
  await sql`drop function contact_channel_sync_primary()`.execute(db);
  await sql`drop function sync_primary_email(uuid)`.execute(db);
  await db.schema
    .alterTable('project_user')
    .dropColumn('primary_email')
    .dropColumn('primary_email_verified')
    .dropColumn('primary_email_auth_enabled')
    .execute();
}
