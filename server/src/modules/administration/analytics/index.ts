import { defineModule } from '../../../kernel/module.ts';
import { analyticsHandlers } from './analytics.routes.ts';

/**
 * The analytics batches newer SDKs send (`POST /analytics/events/batch`): checked by the spec's schema
 * and dropped. Gatehouse keeps no analytics; accepting the batch keeps those SDKs quiet.
 */
export const analyticsModule = defineModule({
  name: 'analytics',
  handlers: () => analyticsHandlers(),
});
