import { defineModule } from '../../kernel/module.ts';
import * as migration0040 from './migrations/0040-webhook-endpoints.ts';
import { WebhookEndpointService } from './webhook-endpoint.service.ts';
import { webhookHandlers } from './webhooks.routes.ts';

/**
 * Webhooks: a project's endpoints, their `whsec_` secrets (rotation with a grace period), the SSRF
 * guard of their URLs, the dashboard's portal token and the test message.
 */
export const webhooksModule = defineModule({
  name: 'webhooks',
  migrations: { '0040-webhook-endpoints': migration0040 },
  services: (_needs, { db, serverSecret, publicUrl }) => ({ webhookEndpoints: new WebhookEndpointService(db, serverSecret, publicUrl) }),
  handlers: webhookHandlers,
});
