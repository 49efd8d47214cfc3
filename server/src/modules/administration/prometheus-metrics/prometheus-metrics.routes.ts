import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { PrometheusMetricsService } from './prometheus-metrics.service.ts';

export function prometheusMetricsHandlers(metrics: PrometheusMetricsService) {
  return {
    getPrometheusMetrics: async (request, reply) => {
      metrics.authorize(request.headers.authorization);
      const { contentType, text } = await metrics.render();
      return reply.type(contentType).send(text);
    },
  } satisfies Partial<OperationHandlers>;
}
