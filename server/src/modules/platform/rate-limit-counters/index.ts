import type { BackgroundJob } from '../../../kernel/background-job.ts';
import { defineModule } from '../../../kernel/module.ts';
import type { RateLimitCounter } from '../../../plugins/rate-limits.ts';
import * as migration0070 from './migrations/0070-rate-limit-counters.ts';
import {
  deleteCounterAcrossProjects,
  deleteLapsedCountersAcrossProjects,
  hitCounterAcrossProjects,
  peekCounterAcrossProjects,
  releaseCounterHitAcrossProjects,
} from './rate-limit-counter.repository.ts';
import { createRedisRateLimitCounter, readRedisUrl, type RedisCounterOptions } from './redis-rate-limit-counter.ts';

export type RateLimitCounterSettings = {
  /** `REDIS_URL`: when set, the counters live in that Redis instead of the Postgres table. */
  redis?: RedisCounterOptions;
};

/**
 * Rate-limit counters shared by every instance: a Postgres table by default (one upsert per hit; a
 * job deletes lapsed counters every minute), or Redis when `REDIS_URL` is set (one script per hit,
 * keys expire by themselves). Either way a limit holds across instances instead of multiplying by their number.
 */
export const rateLimitCountersModule = defineModule({
  name: 'rateLimitCounters',
  migrations: { '0070-rate-limit-counters': migration0070 },
  settings: (environment): RateLimitCounterSettings => {
    const url = readRedisUrl(environment);
    return url ? { redis: { url } } : {};
  },
  services: (_needs, { db, settings }): { rateLimitCounter: RateLimitCounter } => ({
    rateLimitCounter: settings?.redis
      ? createRedisRateLimitCounter(settings.redis)
      : {
          hit: (key, windowMs) => hitCounterAcrossProjects(db, key, windowMs),
          peek: (key) => peekCounterAcrossProjects(db, key),
          forget: (key) => deleteCounterAcrossProjects(db, key),
          release: (key) => releaseCounterHitAcrossProjects(db, key),
        },
  }),
  jobs: (_services, { db, settings }): BackgroundJob[] =>
    settings?.redis
      ? []
      : [
          {
            name: 'rate-limit counters cleanup',
            intervalMillis: 60_000,
            run: async () => {
              while ((await deleteLapsedCountersAcrossProjects(db, 1000)) === 1000);
            },
          },
        ],
});
