import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { HealthService } from './health.service.ts';

export function healthHandlers(health: HealthService) {
  return {
    getHealth: async () => ({ status: 'ok' as const }),

    getReadiness: async () => {
      await health.checkReadiness();
      return { status: 'ready' as const };
    },
  } satisfies Partial<OperationHandlers>;
}
