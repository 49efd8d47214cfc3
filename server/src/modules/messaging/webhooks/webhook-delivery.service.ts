import { WebhookEndpointNotFoundError, WebhookMessageNotFoundError } from '@gatehouse/protocol/errors';
import { type DbHandle, inTransaction } from '../../../db/handle.ts';
import type { JobLog } from '../../../kernel/background-job.ts';
import { DeliveryRounds } from '../../../kernel/delivery-rounds.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { EventLog } from '../../platform/events/index.ts';
import { findWebhookEndpoint } from './webhook-endpoint.repository.ts';
import { outboundPolicyOf, signingSecretsOf } from './webhook-endpoint.service.ts';
import { openWebhookSecrets } from './webhook-secret-sealing.ts';
import type { AtRestCipher } from '../../../lib/at-rest-cipher.ts';
import { isUuid } from '../../../lib/uuid.ts';
import {
  type ClaimedWebhookMessage,
  claimDueWebhookMessagesAcrossProjects,
  countPendingWebhookMessagesAcrossProjects,
  disableFailingWebhookEndpoint,
  listWebhookAttempts,
  listWebhookMessages,
  requeueWebhookMessage,
  settleWebhookDeliveriesAcrossProjects,
  type WebhookSettlement,
} from './webhook-message.repository.ts';
import { WebhookConnections } from './webhook-connections.ts';
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
  private readonly connections: WebhookConnections;
  private readonly rounds: DeliveryRounds;

  constructor(
    private readonly db: DbHandle,
    private readonly events: EventLog,
    private readonly findProject: (id: string) => Promise<Project | undefined>,
    readonly settings: WebhookSettings,
    private readonly cipher: AtRestCipher,
  ) {
    this.connections = new WebhookConnections(settings.endpointConnections ?? 16);
    this.rounds = new DeliveryRounds(
      (log) => this.deliverDue(log),
      () => this.settings.claimsInFlight ?? 1,
    );
  }

  /** Messages waiting for a delivery attempt, in every project (metrics). */
  pendingCount(): Promise<number> {
    return countPendingWebhookMessagesAcrossProjects(this.db);
  }

  /** One round: claims a batch, posts its messages side by side and settles them in one statement; the number claimed. */
  async deliverDue(log?: JobLog): Promise<number> {
    const claimed = await claimDueWebhookMessagesAcrossProjects(this.db, this.settings.batchSize, this.settings.leaseMillis);
    if (claimed.length === 0) return 0;
    const projects = new Map<string, Promise<Project | undefined>>();
    const projectOf = (id: string) => {
      let project = projects.get(id);
      if (!project) {
        project = this.findProject(id);
        projects.set(id, project);
      }
      return project;
    };
    const settlements = await Promise.all(
      claimed.map((message) =>
        this.post(message, projectOf(message.project_id)).catch((error: unknown) => {
          log?.error({ err: error, message: message.message_id }, 'webhook delivery failed');
          return undefined;
        }),
      ),
    );
    const failing = await settleWebhookDeliveriesAcrossProjects(
      this.db,
      settlements.filter((settlement) => settlement !== undefined),
    );
    for (const endpoint of failing) {
      if (endpoint.failing_since && Date.now() - endpoint.failing_since.getTime() >= this.settings.disableAfterMillis)
        await this.disable(endpoint.project_id as ProjectId, endpoint.id, endpoint.failing_since);
    }
    return claimed.length;
  }

  /**
   * Rounds until nothing is due (or `budgetMillis` is spent, so one run does not hold the timer
   * forever), `claimsInFlight` of them side by side. A call while a run is going joins it (and makes
   * it look once more), so the job and a wake-up never run two runs in one instance.
   */
  deliverUntilIdle(log?: JobLog, budgetMillis = 10_000): Promise<void> {
    return this.rounds.run(log, budgetMillis);
  }

  /** Delivers now (messages were just queued: the NOTIFY of the trigger that queued them); errors are logged, never thrown. */
  wake(log?: JobLog): void {
    if (this.rounds.isStopped || this.settings.pollIntervalMillis === 0) return;
    this.deliverUntilIdle(log).catch((error: unknown) => log?.error({ err: error }, 'webhook delivery failed'));
  }

  /** Stops delivering (waits for the round in progress) and closes the kept-alive connections. */
  async close(): Promise<void> {
    await this.rounds.stop();
    await this.connections.close();
  }

  private async post(message: ClaimedWebhookMessage, projectLookup: Promise<Project | undefined>): Promise<WebhookSettlement | undefined> {
    const projectId = message.project_id;
    const project = await projectLookup;
    if (!project) return undefined;
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
      connections: this.connections,
    });
    const { retryScheduleMillis: schedule, maxAttempts } = this.settings;
    const wait = schedule[Math.min(message.attempts - 1, schedule.length - 1)] ?? 0;
    return {
      projectId,
      id: message.id,
      endpointId: message.endpoint_id,
      attempt: message.attempts,
      startedAt,
      finishedAt: new Date(),
      succeeded: outcome.ok,
      statusCode: outcome.status,
      latencyMillis: outcome.latencyMillis,
      // Kept empty: the receiver's answer is never shown back (see postWebhook).
      error: outcome.error,
      outcome: outcome.ok
        ? { status: 'delivered' }
        : message.attempts >= maxAttempts
          ? { status: 'failed' }
          : { status: 'pending', nextAttemptAt: new Date(Date.now() + wait) },
    };
  }

  /** Turns off an endpoint that kept failing (once, whichever worker gets there first), recording the event. */
  private async disable(projectId: ProjectId, endpointId: string, failingSince: Date): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      const disabled = await disableFailingWebhookEndpoint(trx, projectId, endpointId);
      if (!disabled) return;
      await this.events.record(trx, projectId, 'webhook_endpoint.disabled', {
        id: disabled.id,
        url: disabled.url,
        reason: 'failing',
        failing_since_millis: (disabled.failing_since ?? failingSince).getTime(),
      });
    });
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
    const message = isUuid(endpointId) ? await requeueWebhookMessage(this.db, projectId, endpointId.toLowerCase(), messageId) : undefined;
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
