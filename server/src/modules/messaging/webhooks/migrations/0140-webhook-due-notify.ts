import { type Kysely, sql } from 'kysely';

/**
 * Wakes the delivery workers when messages are queued: the fan-out trigger now also sends a NOTIFY
 * (on the channel every instance already listens on for cache invalidations, topic `webhooks.due`),
 * which leaves at the commit of the event's transaction (one per transaction: Postgres folds equal
 * notifications). The workers' poll stays as the fallback (a lost notification, PGlite). The endpoints it
 * fans out to are those of 0122 (the audit stream only to endpoints that list it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function webhook_fan_out() returns trigger language plpgsql as $$
    declare
      v_message_id text := 'msg_' || replace(gen_random_uuid()::text, '-', '');
    begin
      insert into webhook_message (id, project_id, endpoint_id, message_id, event_type, payload, status, next_attempt_at)
      select gen_random_uuid(), new.project_id, e.id, v_message_id, new.type,
             jsonb_build_object('type', new.type, 'data', new.data)::text, 'pending', now()
      from webhook_endpoint e
      where e.project_id = new.project_id and e.enabled
        and ((e.event_types = '[]'::jsonb and new.type <> 'audit_log.entry_created') or e.event_types ? new.type);
      if found then
        perform pg_notify('gatehouse_cache_invalidation', '{"seq":"0","topic":"webhooks.due","key":"","origin":""}');
      end if;
      return null;
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function webhook_fan_out() returns trigger language plpgsql as $$
    declare
      v_message_id text := 'msg_' || replace(gen_random_uuid()::text, '-', '');
    begin
      insert into webhook_message (id, project_id, endpoint_id, message_id, event_type, payload, status, next_attempt_at)
      select gen_random_uuid(), new.project_id, e.id, v_message_id, new.type,
             jsonb_build_object('type', new.type, 'data', new.data)::text, 'pending', now()
      from webhook_endpoint e
      where e.project_id = new.project_id and e.enabled
        and ((e.event_types = '[]'::jsonb and new.type <> 'audit_log.entry_created') or e.event_types ? new.type);
      return null;
    end $$`.execute(db);
}
