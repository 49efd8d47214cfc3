import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import { authOf } from '../../../request-context/auth-of.ts';
import type { WebhookDeliveryService } from './webhook-delivery.service.ts';
import { toWebhookEndpoint, toWebhookEndpointWithSecret, type WebhookEndpointService } from './webhook-endpoint.service.ts';

export function webhookHandlers({
  webhookEndpoints,
  webhookDelivery,
}: {
  webhookEndpoints: WebhookEndpointService;
  webhookDelivery: WebhookDeliveryService;
}) {
  return {
    createWebhookPortalToken: async (request, reply) => {
      reply.status(201);
      return webhookEndpoints.portalToken(authOf(request).project.id);
    },
    listWebhookEndpoints: async (request) => ({
      items: (await webhookEndpoints.list(authOf(request).project.id)).map((row) => toWebhookEndpoint(row)),
      is_paginated: false as const,
    }),
    createWebhookEndpoint: async (request, reply) => {
      const endpoint = await webhookEndpoints.create(authOf(request).project, request.body);
      reply.status(201);
      return toWebhookEndpointWithSecret(endpoint);
    },
    getWebhookEndpoint: async (request) =>
      toWebhookEndpoint(await webhookEndpoints.getShown(authOf(request).project.id, request.params.endpoint_id)),
    updateWebhookEndpoint: async (request) =>
      toWebhookEndpoint(await webhookEndpoints.update(authOf(request).project, request.params.endpoint_id, request.body)),
    deleteWebhookEndpoint: async (request) => {
      await webhookEndpoints.delete(authOf(request).project.id, request.params.endpoint_id);
      return { success: true as const };
    },
    resetWebhookEndpointSecret: async (request) =>
      toWebhookEndpointWithSecret(
        await webhookEndpoints.rotateSecret(authOf(request).project.id, request.params.endpoint_id, request.body?.grace_period_seconds),
      ),
    listWebhookMessages: async (request) => ({
      items: await webhookDelivery.listMessages(authOf(request).project.id, request.params.endpoint_id),
      is_paginated: false as const,
    }),
    sendWebhookMessageAgain: async (request) =>
      webhookDelivery.replay(authOf(request).project.id, request.params.endpoint_id, request.params.message_id),
    sendTestWebhook: async (request) => webhookEndpoints.sendTest(authOf(request).project, request.body.endpoint_id),
  } satisfies Partial<OperationHandlers>;
}
