import { WebhookEndpointNotFoundError, WebhookMessageNotFoundError } from '@gatehouse/protocol/errors';
import { type DbHandle, inTransaction } from '../../db/handle.ts';
import type { JobLog } from '../../kernel/background-job.ts';
import type { Project } from '../../tenancy/project.ts';
import type { ProjectId } from '../../tenancy/project-id.ts';
import type { EventLog } from '../events/index.ts';
import { findWebhookEndpoint } from './webhook-endpoint.repository.ts';
import { outboundPolicyOf, signingSecretsOf } from './webhook-endpoint.service.ts';
import { openWebhookSecrets } from './webhook-secret-sealing.ts';
import type { AtRestCipher } from '../../lib/at-rest-cipher.ts';
import {
  type ClaimedWebhookMessage,
  claimDueWebhookMessagesAcrossProjects,
  countPendingWebhookMessagesAcrossProjects,
  disableFailingWebhookEndpoint,
  insertWebhookAttempt,
  listWebhookAttempts,
  listWebhookMessages,
  noteWebhookEndpointOutcome,
  requeueWebhookMessage,
  settleWebhookMessage,
} from './webhook-message.repository.ts';
import type { WebhookAttemptRow, WebhookMessageRow } from './webhook-message.table.ts';
import { postWebhook, signedHeaders } from './webhook-sender.ts';
import type { WebhookSettings } from './webhook-settings.ts';

const logLimit = 100;

/**
 * Delivery: claims due messages (see the repository), posts each signed with its endpoint's
 * secrets, logs the attempt, and settles the message (delivered, retried later on the schedule, or
 * failed after the last attempt); disables an endpoint that kept failing for days.
 */
export class WebhookDeliveryService {
  constructor(
    private readonly db: DbHandle,
    private readonly events: EventLog,
    private readonly findProject: (id: string) => Promise<Project | undefined>,
    readonly settings: WebhookSettings,
    private readonly cipher: AtRestCipher,
  ) {}

  /** Messages waiting for a delivery attempt, in every project (metrics). */
  pendingCount(): Promise<number> {
    return countPendingWebhookMessagesAcrossProjects(this.db);
  }

  /** One round: claims a batch and delivers it; the number claimed. */
  async deliverDue(log?: JobLog): Promise<number> {
    const claimed = await claimDueWebhookMessagesAcrossProjects(this.db, this.settings.batchSize, this.settings.leaseMillis);
    await Promise.all(
      claimed.map((message) =>
        this.deliver(message).catch((error: unknown) => log?.error({ err: error, message: message.message_id }, 'webhook delivery failed')),
      ),
    );
    return claimed.length;
  }

  /** Rounds until nothing is due (or `budgetMillis` is spent, so one run does not hold the timer forever). */
  async deliverUntilIdle(log?: JobLog, budgetMillis = 10_000): Promise<void> {
    const until = Date.now() + budgetMillis;
    while ((await this.deliverDue(log)) > 0 && Date.now() < until) {
      // next round
    }
  }

  private async deliver(message: ClaimedWebhookMessage): Promise<void> {
    const projectId = message.project_id;
    const project = await this.findProject(projectId);
    if (!project) return;
    const startedAt = new Date();
    const outcome = await postWebhook({
      url: message.url,
      body: message.payload,
      headers: signedHeaders(
        message.message_id,
        startedAt,
        message.payload,
        signingSecretsOf(openWebhookSecrets(this.cipher, message), startedAt),
      ),
      timeoutMillis: this.settings.attemptTimeoutMillis,
      policy: outboundPolicyOf(project),
      resolve: this.settings.resolve,
    });
    await insertWebhookAttempt(this.db, projectId, {
      message_row_id: message.id,
      attempt: message.attempts,
      started_at: startedAt,
      succeeded: outcome.ok,
      status_code: outcome.status,
      latency_millis: outcome.latencyMillis,
      // Kept empty: the receiver's answer is never shown back (see postWebhook).
      response_excerpt: '',
      error: outcome.error,
    });
    if (outcome.ok) {
      await settleWebhookMessage(this.db, projectId, message.id, { status: 'delivered', at: new Date() });
      await noteWebhookEndpointOutcome(this.db, projectId, message.endpoint_id, true, startedAt);
      return;
    }
    const { retryScheduleMillis: schedule, maxAttempts } = this.settings;
    const wait = schedule[Math.min(message.attempts - 1, schedule.length - 1)] ?? 0;
    await settleWebhookMessage(
      this.db,
      projectId,
      message.id,
      message.attempts >= maxAttempts ? { status: 'failed' } : { status: 'pending', nextAttemptAt: new Date(Date.now() + wait) },
    );
    const endpoint = await noteWebhookEndpointOutcome(this.db, projectId, message.endpoint_id, false, startedAt);
    if (endpoint?.failing_since && Date.now() - endpoint.failing_since.getTime() >= this.settings.disableAfterMillis) {
      await inTransaction(this.db, async (trx) => {
        const disabled = await disableFailingWebhookEndpoint(trx, projectId, message.endpoint_id);
        if (!disabled) return;
        await this.events.record(trx, projectId, 'webhook_endpoint.disabled', {
          id: disabled.id,
          url: disabled.url,
          reason: 'failing',
          failing_since_millis: (disabled.failing_since ?? startedAt).getTime(),
        });
      });
    }
  }

  /** The endpoint's newest messages with their attempts (the delivery log). */
  async listMessages(projectId: ProjectId, endpointId: string) {
    if (!(await findWebhookEndpoint(this.db, projectId, endpointId))) throw new WebhookEndpointNotFoundError({ endpoint_id: endpointId });
    const messages = await listWebhookMessages(this.db, projectId, endpointId, logLimit);
    const attempts = await listWebhookAttempts(
      this.db,
      projectId,
      messages.map((message) => message.id),
    );
    return messages.map((message) => toWebhookMessage(message, attempts));
  }

  /** Queues a message for its endpoint again, now (same `webhook-id`). */
  async replay(projectId: ProjectId, endpointId: string, messageId: string) {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(endpointId);
    const message = uuid ? await requeueWebhookMessage(this.db, projectId, endpointId.toLowerCase(), messageId) : undefined;
    if (!message) throw new WebhookMessageNotFoundError({ endpoint_id: endpointId, message_id: messageId });
    return toWebhookMessage(message, await listWebhookAttempts(this.db, projectId, [message.id]));
  }
}

/** The admin view of a message and its attempts (the spec's `WebhookMessage`). */
export function toWebhookMessage(message: WebhookMessageRow, attempts: readonly WebhookAttemptRow[]) {
  return {
    id: message.message_id,
    event_type: message.event_type,
    payload: JSON.parse(message.payload) as { type: string; data: unknown },
    status: message.status,
    attempts: message.attempts,
    next_attempt_at_millis: message.status === 'pending' ? message.next_attempt_at.getTime() : null,
    created_at_millis: message.created_at.getTime(),
    delivered_at_millis: message.delivered_at ? message.delivered_at.getTime() : null,
    attempt_log: attempts
      .filter((attempt) => attempt.message_row_id === message.id)
      .map((attempt) => ({
        attempt: attempt.attempt,
        started_at_millis: attempt.started_at.getTime(),
        succeeded: attempt.succeeded,
        status_code: attempt.status_code,
        latency_millis: attempt.latency_millis,
        response_excerpt: attempt.response_excerpt,
        error: attempt.error,
      })),
  };
}
