import type { OperationBody, Schema } from '@gatehouse/protocol/operation-types';
import type { AppCall } from './app-call.ts';
import * as op from '@gatehouse/protocol/operations';

/** An endpoint as reads show it: without its signing secret. */
export type WebhookEndpoint = Schema<'WebhookEndpoint'>;
/** An endpoint with its `whsec_` signing secret: only the answers that create it or rotate its secret carry it. */
export type WebhookEndpointWithSecret = Schema<'WebhookEndpointWithSecret'>;
export type WebhookEndpointCreate = Schema<'WebhookEndpointCreate'>;
export type WebhookEndpointUpdate = Schema<'WebhookEndpointUpdate'>;
export type WebhookMessage = Schema<'WebhookMessage'>;
export type WebhookAttempt = Schema<'WebhookAttempt'>;

/** The project's webhook endpoints, their delivery log, replay and test messages (admin app). */
export type AdminWebhooks = {
  /** Every endpoint, oldest first (without secrets: a secret is shown once, at creation or rotation). */
  listEndpoints(): Promise<WebhookEndpoint[]>;
  /** WebhookEndpointUrlNotAllowedError for a private/loopback/link-local address unless the project allows localhost. */
  createEndpoint(endpoint: WebhookEndpointCreate): Promise<WebhookEndpointWithSecret>;
  /** WebhookEndpointNotFoundError for an unknown id. */
  getEndpoint(endpointId: string): Promise<WebhookEndpoint>;
  /** Fields left out keep their value; `{ enabled: false }` pauses delivery. */
  updateEndpoint(endpointId: string, changes: WebhookEndpointUpdate): Promise<WebhookEndpoint>;
  /** Removes the endpoint with its pending deliveries and attempt log. */
  deleteEndpoint(endpointId: string): Promise<void>;
  /** A new secret at once; the previous one keeps signing beside it for `gracePeriodSeconds` (default one day). */
  rotateSecret(endpointId: string, options?: { gracePeriodSeconds?: number }): Promise<WebhookEndpointWithSecret>;
  /** The endpoint's newest 100 messages, newest first, each with every attempt (status, latency, response excerpt). */
  listMessages(endpointId: string): Promise<WebhookMessage[]>;
  /** Queues the message for the endpoint again (same `webhook-id`); WebhookMessageNotFoundError when unknown. */
  replayMessage(endpointId: string, messageId: string): Promise<WebhookMessage>;
  /** Posts a signed test message once and reports whether the endpoint answered 2xx. */
  sendTestMessage(endpointId: string): Promise<{ success: boolean; errorMessage: string | null }>;
  /** Stack's `/webhooks/svix-token`: a one-hour token that manages only this project's webhooks. */
  createPortalToken(): Promise<Schema<'WebhookPortalToken'>>;
};

export function adminWebhooks(call: AppCall): AdminWebhooks {
  const endpoint = (endpoint_id: string) => ({ params: { endpoint_id } });
  return {
    listEndpoints: async () => (await call(op.listWebhookEndpoints)).items,
    createEndpoint: (created) => call(op.createWebhookEndpoint, { body: created }),
    getEndpoint: (endpointId) => call(op.getWebhookEndpoint, endpoint(endpointId)),
    updateEndpoint: (endpointId, changes) => call(op.updateWebhookEndpoint, { ...endpoint(endpointId), body: changes }),
    deleteEndpoint: async (endpointId) => {
      await call(op.deleteWebhookEndpoint, endpoint(endpointId));
    },
    rotateSecret: (endpointId, options = {}) => {
      const body: OperationBody<'resetWebhookEndpointSecret'> =
        options.gracePeriodSeconds === undefined ? {} : { grace_period_seconds: options.gracePeriodSeconds };
      return call(op.resetWebhookEndpointSecret, { ...endpoint(endpointId), body });
    },
    listMessages: async (endpointId) => (await call(op.listWebhookMessages, endpoint(endpointId))).items,
    replayMessage: (endpointId, messageId) =>
      call(op.sendWebhookMessageAgain, { params: { endpoint_id: endpointId, message_id: messageId }, body: {} }),
    sendTestMessage: async (endpointId) => {
      const answer = await call(op.sendTestWebhook, { body: { endpoint_id: endpointId } });
      return { success: answer.success, errorMessage: answer.error_message ?? null };
    },
    createPortalToken: () => call(op.createWebhookPortalToken, { body: {} }),
  };
}
