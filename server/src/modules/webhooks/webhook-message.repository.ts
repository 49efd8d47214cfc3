import { sql } from 'kysely';
import { type DbHandle, kyselyOf } from '../../db/handle.ts';
import type { ProjectId } from '../../tenancy/project-id.ts';
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

export async function insertWebhookAttempt(
  db: DbHandle,
  projectId: ProjectId,
  attempt: Omit<WebhookAttemptRow, 'id' | 'project_id'>,
): Promise<void> {
  // The message may be gone (its endpoint deleted meanwhile): then there is nothing to log.
  await kyselyOf(db)
    .insertInto('webhook_attempt')
    .columns([
      'project_id',
      'message_row_id',
      'attempt',
      'started_at',
      'succeeded',
      'status_code',
      'latency_millis',
      'response_excerpt',
      'error',
    ])
    .expression((eb) =>
      eb
        .selectFrom('webhook_message')
        .select([
          eb.val(projectId).as('project_id'),
          'id',
          eb.val(attempt.attempt).as('attempt'),
          eb.val(attempt.started_at).as('started_at'),
          eb.val(attempt.succeeded).as('succeeded'),
          eb.val(attempt.status_code).as('status_code'),
          eb.val(attempt.latency_millis).as('latency_millis'),
          eb.val(attempt.response_excerpt).as('response_excerpt'),
          eb.val(attempt.error).as('error'),
        ])
        .where('project_id', '=', projectId)
        .where('id', '=', attempt.message_row_id),
    )
    .execute();
}

/** Settles a claimed message: delivered, failed for good, or pending again at `nextAttemptAt`. */
export async function settleWebhookMessage(
  db: DbHandle,
  projectId: ProjectId,
  id: string,
  outcome: { status: 'delivered'; at: Date } | { status: 'failed' } | { status: 'pending'; nextAttemptAt: Date },
): Promise<void> {
  await kyselyOf(db)
    .updateTable('webhook_message')
    .set(
      outcome.status === 'delivered'
        ? { status: 'delivered', delivered_at: outcome.at }
        : outcome.status === 'failed'
          ? { status: 'failed' }
          : { status: 'pending', next_attempt_at: outcome.nextAttemptAt },
    )
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .execute();
}

/** Notes a delivery's outcome on its endpoint: a success ends a failing run; a failure starts one (when none is running). */
export async function noteWebhookEndpointOutcome(
  db: DbHandle,
  projectId: ProjectId,
  endpointId: string,
  succeeded: boolean,
  at: Date,
): Promise<{ failing_since: Date | null } | undefined> {
  return kyselyOf(db)
    .updateTable('webhook_endpoint')
    .set((eb) => ({ failing_since: succeeded ? null : eb.fn.coalesce('failing_since', eb.val(at)) }))
    .where('project_id', '=', projectId)
    .where('id', '=', endpointId)
    .returning(['failing_since'])
    .executeTakeFirst();
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
