import { type Kysely, sql } from 'kysely';

/**
 * The delivery queue and its attempt log. A trigger on `event` queues one message per enabled
 * endpoint that wants the type, in the transaction that records the event: an event committed is
 * an event queued, whichever module recorded it. Every endpoint gets the same message id for one
 * event (`webhook-id`, for receivers to deduplicate).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table webhook_message (
      id uuid primary key,
      project_id text not null references project (id) on delete cascade,
      endpoint_id uuid not null references webhook_endpoint (id) on delete cascade,
      message_id text not null,
      event_type text not null,
      payload text not null,
      status text not null check (status in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      created_at timestamptz not null default now(),
      delivered_at timestamptz,
      unique (endpoint_id, message_id)
    )`.execute(db);
  // The worker's claim: due pending messages, oldest due first.
  await sql`create index webhook_message_due_idx on webhook_message (next_attempt_at) where status = 'pending'`.execute(db);
  await sql`create index webhook_message_endpoint_idx on webhook_message (endpoint_id, created_at)`.execute(db);
  await sql`
    create table webhook_attempt (
      id bigserial primary key,
      project_id text not null references project (id) on delete cascade,
      message_row_id uuid not null references webhook_message (id) on delete cascade,
      attempt integer not null,
      started_at timestamptz not null,
      succeeded boolean not null,
      status_code integer,
      latency_millis integer not null,
      response_excerpt text not null,
      error text
    )`.execute(db);
  await sql`create index webhook_attempt_message_idx on webhook_attempt (message_row_id, id)`.execute(db);
  await sql`
    create function webhook_fan_out() returns trigger language plpgsql as $$
    declare
      v_message_id text := 'msg_' || replace(gen_random_uuid()::text, '-', '');
    begin
      insert into webhook_message (id, project_id, endpoint_id, message_id, event_type, payload, status, next_attempt_at)
      select gen_random_uuid(), new.project_id, e.id, v_message_id, new.type,
             jsonb_build_object('type', new.type, 'data', new.data)::text, 'pending', now()
      from webhook_endpoint e
      where e.project_id = new.project_id and e.enabled and (e.event_types = '[]'::jsonb or e.event_types ? new.type);
      return null;
    end $$`.execute(db);
  await sql`create trigger event_webhook_fan_out after insert on event for each row execute function webhook_fan_out()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger event_webhook_fan_out on event`.execute(db);
  await sql`drop function webhook_fan_out()`.execute(db);
  await sql`drop table webhook_attempt`.execute(db);
  await sql`drop table webhook_message`.execute(db);
}
