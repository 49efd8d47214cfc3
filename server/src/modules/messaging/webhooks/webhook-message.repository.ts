import { sql } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { WebhookAttemptRow, WebhookMessageRow } from './webhook-message.table.ts';

/** A claimed message with what its delivery needs of its endpoint. */
export type ClaimedWebhookMessage = WebhookMessageRow & {
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
};

/**
 * Claims up to `limit` due messages of enabled endpoints, of every project: each claimed row counts
 * an attempt and is leased (its due time moves `leaseMillis` ahead), so another worker skips it
 * (SKIP LOCKED while this one decides, the lease after) until this worker settles it or dies.
 */
export async function claimDueWebhookMessagesAcrossProjects(
  db: DbHandle,
  limit: number,
  leaseMillis: number,
): Promise<ClaimedWebhookMessage[]> {
  const result = await sql<ClaimedWebhookMessage>`
    with due as (
      select m.id from webhook_message m
      join webhook_endpoint e on e.id = m.endpoint_id and e.enabled
      where m.status = 'pending' and m.next_attempt_at <= now()
      order by m.next_attempt_at
      limit ${limit}
      for update of m skip locked
    )
    update webhook_message m
    set attempts = m.attempts + 1, next_attempt_at = now() + ${leaseMillis} * interval '1 millisecond'
    from due, webhook_endpoint e
    where m.id = due.id and e.id = m.endpoint_id
    returning m.*, e.url, e.secret, e.previous_secret, e.previous_secret_expires_at`.execute(kyselyOf(db));
  return result.rows;
}

/** One claimed message's attempt and what became of it. */
export type WebhookSettlement = {
  projectId: ProjectId;
  id: string;
  endpointId: string;
  attempt: number;
  startedAt: Date;
  finishedAt: Date;
  succeeded: boolean;
  statusCode: number | null;
  latencyMillis: number;
  error: string | null;
  outcome: { status: 'delivered' } | { status: 'failed' } | { status: 'pending'; nextAttemptAt: Date };
};

/**
 * Settles a claimed batch in one statement: logs each attempt (when its message still exists),
 * settles each message still held by this claim (its `attempts` unchanged: not taken over by
 * another worker after the lease ran out), and notes the outcomes on their endpoints (a success
 * ends a failing run, a failure after the endpoint's last success starts one; an endpoint that
 * only succeeded and was not failing is not written). Returns the failing endpoints' `failing_since`.
 */
export async function settleWebhookDeliveriesAcrossProjects(
  db: DbHandle,
  settlements: readonly WebhookSettlement[],
): Promise<Array<{ id: string; project_id: string; failing_since: Date | null }>> {
  if (settlements.length === 0) return [];
  const column = <T>(pick: (settlement: WebhookSettlement) => T) => settlements.map(pick);
  // Per endpoint: whether any attempt succeeded, and the first failure after its last success.
  const endpoints = new Map<string, { projectId: string; succeeded: boolean; failedSince: Date | null }>();
  for (const settlement of [...settlements].sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime())) {
    const noted = endpoints.get(settlement.endpointId) ?? { projectId: settlement.projectId, succeeded: false, failedSince: null };
    if (settlement.succeeded) endpoints.set(settlement.endpointId, { ...noted, succeeded: true, failedSince: null });
    else endpoints.set(settlement.endpointId, { ...noted, failedSince: noted.failedSince ?? settlement.startedAt });
  }
  const endpointRows = [...endpoints];
  const { rows } = await sql<{ id: string; project_id: string; failing_since: Date | null }>`
    with s as (
      select * from unnest(
        ${column((s) => s.id)}::uuid[], ${column((s) => s.projectId)}::text[], ${column((s) => s.attempt)}::int[],
        ${column((s) => s.startedAt.toISOString())}::timestamptz[], ${column((s) => s.finishedAt.toISOString())}::timestamptz[],
        ${column((s) => s.succeeded)}::boolean[], ${column((s) => s.statusCode)}::int[], ${column((s) => s.latencyMillis)}::int[],
        ${column((s) => s.error)}::text[], ${column((s) => s.outcome.status)}::text[],
        ${column((s) => (s.outcome.status === 'pending' ? s.outcome.nextAttemptAt.toISOString() : null))}::timestamptz[]
      ) as s(id, project_id, attempt, started_at, finished_at, succeeded, status_code, latency_millis, error, status, next_attempt_at)
    ),
    logged as (
      insert into webhook_attempt (project_id, message_row_id, attempt, started_at, succeeded, status_code, latency_millis, response_excerpt, error)
      select s.project_id, s.id, s.attempt, s.started_at, s.succeeded, s.status_code, s.latency_millis, '', s.error
      from s join webhook_message m on m.id = s.id and m.project_id = s.project_id
    ),
    settled as (
      update webhook_message m set
        status = s.status,
        delivered_at = case when s.status = 'delivered' then s.finished_at else m.delivered_at end,
        next_attempt_at = case when s.status = 'pending' then s.next_attempt_at else m.next_attempt_at end
      from s
      where m.id = s.id and m.project_id = s.project_id and m.attempts = s.attempt
    ),
    n as (
      select * from unnest(
        ${endpointRows.map(([id]) => id)}::uuid[], ${endpointRows.map(([, noted]) => noted.projectId)}::text[],
        ${endpointRows.map(([, noted]) => noted.succeeded)}::boolean[],
        ${endpointRows.map(([, noted]) => noted.failedSince?.toISOString() ?? null)}::timestamptz[]
      ) as n(id, project_id, succeeded, failed_since)
    )
    update webhook_endpoint e set
      failing_since = case when n.succeeded then n.failed_since else coalesce(e.failing_since, n.failed_since) end
    from n
    where e.id = n.id and e.project_id = n.project_id and (n.failed_since is not null or e.failing_since is not null)
    returning e.id, e.project_id, e.failing_since`.execute(kyselyOf(db));
  return rows.filter((row) => row.failing_since !== null);
}

/** Turns an enabled endpoint off for failing; undefined when it was off already (another worker did it). */
export async function disableFailingWebhookEndpoint(
  db: DbHandle,
  projectId: ProjectId,
  endpointId: string,
): Promise<{ id: string; url: string; failing_since: Date | null } | undefined> {
  return kyselyOf(db)
    .updateTable('webhook_endpoint')
    .set({ enabled: false, disabled_reason: 'failing', updated_at: new Date() })
    .where('project_id', '=', projectId)
    .where('id', '=', endpointId)
    .where('enabled', '=', true)
    .returning(['id', 'url', 'failing_since'])
    .executeTakeFirst();
}

export async function listWebhookMessages(
  db: DbHandle,
  projectId: ProjectId,
  endpointId: string,
  limit: number,
): Promise<WebhookMessageRow[]> {
  return kyselyOf(db)
    .selectFrom('webhook_message')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('endpoint_id', '=', endpointId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function listWebhookAttempts(
  db: DbHandle,
  projectId: ProjectId,
  messageRowIds: readonly string[],
): Promise<WebhookAttemptRow[]> {
  if (messageRowIds.length === 0) return [];
  return kyselyOf(db)
    .selectFrom('webhook_attempt')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('message_row_id', 'in', messageRowIds)
    .orderBy('id')
    .execute();
}

/** Queues a message for its endpoint again, now. */
export async function requeueWebhookMessage(
  db: DbHandle,
  projectId: ProjectId,
  endpointId: string,
  messageId: string,
): Promise<WebhookMessageRow | undefined> {
  return kyselyOf(db)
    .updateTable('webhook_message')
    .set({ status: 'pending', next_attempt_at: new Date() })
    .where('project_id', '=', projectId)
    .where('endpoint_id', '=', endpointId)
    .where('message_id', '=', messageId)
    .returningAll()
    .executeTakeFirst();
}

/** Webhook messages waiting for a (first or further) delivery attempt, in every project (the metrics' queue depth). */
export async function countPendingWebhookMessagesAcrossProjects(db: DbHandle): Promise<number> {
  const row = await kyselyOf(db)
    .selectFrom('webhook_message')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
