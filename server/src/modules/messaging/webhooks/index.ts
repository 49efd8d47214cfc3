import { defineModule } from '../../../kernel/module.ts';
import { cacheInvalidationModule } from '../../platform/cache-invalidation/index.ts';
import { webhooksDueTopic } from '../../platform/cache-invalidation/index.ts';
import { eventsModule } from '../../platform/events/index.ts';
import { projectsModule } from '../../platform/projects/index.ts';
import * as migration0040 from './migrations/0040-webhook-endpoints.ts';
import * as migration0041 from './migrations/0041-webhook-deliveries.ts';
import * as migration0140 from './migrations/0140-webhook-due-notify.ts';
import { WebhookDeliveryService } from './webhook-delivery.service.ts';
import { WebhookEndpointService } from './webhook-endpoint.service.ts';
import { readWebhookSettings } from './webhook-settings.ts';
import { webhookHandlers } from './webhooks.routes.ts';
import { resealWebhookSecrets } from './webhook-secret-sealing.ts';

const secretsSealingIntervalMillis = 60_000;

/**
 * Webhooks: a project's endpoints, their `whsec_` secrets (rotation with a grace period), the SSRF
 * guard of their URLs, the dashboard's portal token and the test message; delivery of every
 * recorded event (queued by a trigger on `event`, posted by the worker job, retried, logged).
 */
export const webhooksModule = defineModule({
  name: 'webhooks',
  requires: [eventsModule, projectsModule, cacheInvalidationModule],
  settings: readWebhookSettings,
  migrations: {
    '0040-webhook-endpoints': migration0040,
    '0041-webhook-deliveries': migration0041,
    '0140-webhook-due-notify': migration0140,
  },
  services: ({ events, projects, cacheInvalidation }, { db, serverSecret, publicUrl, settings, cipher }) => {
    const webhookDelivery = new WebhookDeliveryService(db, events, (id) => projects.find(id), settings, cipher);
    // Queued messages wake the workers of every instance at once; the poll is the fallback.
    cacheInvalidation.on(webhooksDueTopic, () => webhookDelivery.wake());
    return { webhookEndpoints: new WebhookEndpointService(db, serverSecret, publicUrl, cipher, settings.resolve), webhookDelivery };
  },
  handlers: webhookHandlers,
  jobs: ({ webhookDelivery }, { db, cipher }) => [
    {
      name: 'webhook delivery',
      intervalMillis: webhookDelivery.settings.pollIntervalMillis,
      run: (log) => webhookDelivery.deliverUntilIdle(log),
      stop: () => webhookDelivery.close(),
    },
    {
      // Seals secrets written before sealing existed, or under a key since rotated (the upgrade's migration).
      name: 'webhook secrets sealing',
      intervalMillis: secretsSealingIntervalMillis,
      run: async (log) => {
        const sealed = await resealWebhookSecrets(db, cipher);
        if (sealed > 0) log.info({ sealed }, 'webhook endpoint secrets sealed');
      },
    },
  ],
});
