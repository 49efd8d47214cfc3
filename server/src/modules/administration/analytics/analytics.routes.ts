import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import { userOf } from '../../../request-context/auth-of.ts';

export function analyticsHandlers() {
  return {
    createAnalyticsEventBatch: async (request) => {
      // Only a signed-in user may send (x-user: required); the events are not kept.
      userOf(request);
      return { inserted: 0 as const, dropped: request.body.events.length };
    },
  } satisfies Partial<OperationHandlers>;
}
