import { defineModule } from '../../../kernel/module.ts';
import { healthHandlers } from './health.routes.ts';
import { HealthService } from './health.service.ts';

/** The operations probes: `/health` (alive) and `/ready` (database answers, migrations applied, not draining). */
export const healthModule = defineModule({
  name: 'health',
  services: (_needs, { db }) => ({ health: new HealthService(db) }),
  handlers: ({ health }) => healthHandlers(health),
});
