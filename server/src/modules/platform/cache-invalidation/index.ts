import type { BackgroundJob } from '../../../kernel/background-job.ts';
import { defineModule } from '../../../kernel/module.ts';
import { CacheInvalidationService, invalidationTickMs } from './cache-invalidation.service.ts';
import * as migration0071 from './migrations/0071-cache-invalidation.ts';

/**
 * Caches (projects, key sets, verified tokens) invalidated on every instance within 1 s of a change:
 * NOTIFY on Postgres with a dedicated LISTEN connection, the `cache_invalidation` rows read as the
 * fallback while it is down; local only on PGlite.
 */
export const cacheInvalidationModule = defineModule({
  name: 'cacheInvalidation',
  migrations: { '0071-cache-invalidation': migration0071 },
  // The same variable the server connects with: set means Postgres, which other instances may share.
  settings: (environment) => ({ databaseUrl: environment.DATABASE_URL || undefined }),
  services: (_needs, { db, settings }) => ({ cacheInvalidation: new CacheInvalidationService(db, settings.databaseUrl) }),
  jobs: ({ cacheInvalidation }): BackgroundJob[] => [
    {
      name: 'cache invalidation listener',
      intervalMillis: invalidationTickMs,
      run: (log) => cacheInvalidation.tick(log),
      stop: () => cacheInvalidation.stop(),
    },
    { name: 'cache invalidation cleanup', intervalMillis: 60_000, run: () => cacheInvalidation.deleteOld() },
  ],
});

// The module's public surface: what other modules may import (through this file only).
export type { CacheInvalidationService } from './cache-invalidation.service.ts';
export { apiKeySetsTopic, oauthProvidersTopic, projectTopic, verifiedTokensTopic } from './topics.ts';
export { webhooksDueTopic } from './topics.ts';
