import { defineModule } from '../../../kernel/module.ts';
import { cacheInvalidationModule } from '../../platform/cache-invalidation/index.ts';
import { emailModule } from '../../messaging/email/index.ts';
import { webhooksModule } from '../../messaging/webhooks/index.ts';
import { prometheusMetricsHandlers } from './prometheus-metrics.routes.ts';
import { PrometheusMetricsService } from './prometheus-metrics.service.ts';

/** Prometheus metrics (`/api/v1/metrics`, behind `METRICS_TOKEN`; off when it is unset). */
export const prometheusMetricsModule = defineModule({
  name: 'prometheusMetrics',
  requires: [cacheInvalidationModule, emailModule, webhooksModule],
  settings: (environment) => ({ token: environment.METRICS_TOKEN || undefined }),
  services: ({ cacheInvalidation, email, webhookDelivery }, { db, settings }) => ({
    prometheusMetrics: new PrometheusMetricsService(db, settings.token, {
      unsentEmails: () => email.unsentCount(),
      pendingWebhookMessages: () => webhookDelivery.pendingCount(),
      cacheListenerUp: () => cacheInvalidation.listening,
    }),
  }),
  handlers: ({ prometheusMetrics }) => prometheusMetricsHandlers(prometheusMetrics),
});
