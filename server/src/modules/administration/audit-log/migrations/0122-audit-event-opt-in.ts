import { type Kysely, sql } from 'kysely';

/**
 * `audit_log.entry_created` goes only to webhook endpoints that list it: an endpoint subscribed to
 * "every type" (an empty list) keeps receiving Stack's event types, not the audit stream.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await fanOut(db, sql`(e.event_types = '[]'::jsonb and new.type <> 'audit_log.entry_created') or e.event_types ? new.type`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await fanOut(db, sql`e.event_types = '[]'::jsonb or e.event_types ? new.type`);
}

async function fanOut(db: Kysely<unknown>, wants: ReturnType<typeof sql>): Promise<void> {
  await sql`
    create or replace function webhook_fan_out() returns trigger language plpgsql as $$
    declare
      v_message_id text := 'msg_' || replace(gen_random_uuid()::text, '-', '');
    begin
      insert into webhook_message (id, project_id, endpoint_id, message_id, event_type, payload, status, next_attempt_at)
      select gen_random_uuid(), new.project_id, e.id, v_message_id, new.type,
             jsonb_build_object('type', new.type, 'data', new.data)::text, 'pending', now()
      from webhook_endpoint e
      where e.project_id = new.project_id and e.enabled and (${wants});
      return null;
    end $$`.execute(db);
}
