import type { BackgroundJob } from '../../kernel/background-job.ts';
import { defineModule } from '../../kernel/module.ts';
import type { RateLimitCounter } from '../../plugins/rate-limits.ts';
import * as migration0070 from './migrations/0070-rate-limit-counters.ts';
import {
  deleteCounterAcrossProjects,
  deleteLapsedCountersAcrossProjects,
  hitCounterAcrossProjects,
  peekCounterAcrossProjects,
} from './rate-limit-counter.repository.ts';

/**
 * Rate-limit counters shared by every instance on the database (a Postgres table, one upsert per
 * hit), so a limit holds across instances instead of multiplying by their number; a job deletes
 * lapsed counters every minute.
 */
export const rateLimitCountersModule = defineModule({
  name: 'rateLimitCounters',
  migrations: { '0070-rate-limit-counters': migration0070 },
  services: (_needs, { db }): { rateLimitCounter: RateLimitCounter } => ({
    rateLimitCounter: {
      hit: (key, windowMs) => hitCounterAcrossProjects(db, key, windowMs),
      peek: (key) => peekCounterAcrossProjects(db, key),
      forget: (key) => deleteCounterAcrossProjects(db, key),
    },
  }),
  jobs: (_services, { db }): BackgroundJob[] => [
    {
      name: 'rate-limit counters cleanup',
      intervalMillis: 60_000,
      run: async () => {
        while ((await deleteLapsedCountersAcrossProjects(db, 1000)) === 1000);
      },
    },
  ],
});
