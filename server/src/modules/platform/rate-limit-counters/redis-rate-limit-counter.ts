import type { Redis } from 'ioredis';
import type { CounterState, RateLimitCounter } from '../../../plugins/rate-limits.ts';

/**
 * One hit, atomically (a script runs alone on the Redis server): INCR, the window's expiry set by the
 * first hit (fixed window from the first hit, as the Postgres counter), then the time left. A key
 * left without an expiry (it cannot happen through this script) gets the window rather than living forever.
 */
const hitScript = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {hits, ttl}`;

/** Takes one hit back, atomically, only from a running window and never below 0 (the expiry is kept). */
const releaseScript = `
local hits = tonumber(redis.call('GET', KEYS[1]) or '0')
if hits > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

export type RedisCounterOptions = {
  /** `REDIS_URL`: `redis://[user:password@]host[:port][/db]` or `rediss://` (TLS). */
  url: string;
  /** Longest wait for a connection and for a command's answer (default 1000 ms): a Redis outage never hangs a request. */
  timeoutMs?: number;
  /** Told when Redis fails a request (the limit is then skipped for it); default: a warning on stderr at most every 10 s. */
  onError?: (error: Error) => void;
};

export type RedisRateLimitCounter = RateLimitCounter & { close: () => Promise<void> };

const keyPrefix = 'gatehouse:rate-limit:';

/**
 * The rate-limit counter in Redis (`REDIS_URL` set), shared by every instance on that Redis. ioredis
 * is imported on first use, so a server without Redis never loads it. When Redis cannot answer within
 * `timeoutMs` the request is let through (fails open) and the error is reported: an outage of the
 * counter store must not take sign-in down, and a limit skipped for seconds is the lesser harm.
 */
export function createRedisRateLimitCounter(options: RedisCounterOptions): RedisRateLimitCounter {
  const timeoutMs = options.timeoutMs ?? 1000;
  let lastWarning = 0;
  const report =
    options.onError ??
    ((error: Error) => {
      if (Date.now() - lastWarning < 10_000) return;
      lastWarning = Date.now();
      console.warn(`Rate limits skipped: Redis (REDIS_URL) did not answer: ${error.message}`);
    });
  let client: Promise<Redis> | undefined;
  let closed = false;
  const connect = () =>
    (client ??= import('ioredis').then(({ Redis: RedisClient }) => {
      const redis = new RedisClient(options.url, {
        keyPrefix,
        connectionName: 'gatehouse-rate-limits',
        connectTimeout: timeoutMs,
        commandTimeout: timeoutMs,
        maxRetriesPerRequest: 1,
        // Reconnects in the background (at most every second); commands meanwhile fail after commandTimeout.
        retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
        lazyConnect: false,
      });
      // Errors reach the commands that fail; the client's own 'error' events must not crash the process.
      redis.on('error', () => {});
      redis.defineCommand('gatehouseRateLimitHit', { numberOfKeys: 1, lua: hitScript });
      redis.defineCommand('gatehouseRateLimitRelease', { numberOfKeys: 1, lua: releaseScript });
      return redis;
    }));
  // After a failure Redis is not asked for `timeoutMs` (requests go through at once), then the next request tries it
  // again: while it is down, a request waits for it at most once per `timeoutMs`, not once per counter call.
  let skipUntil = 0;
  const failOpen = async <T>(run: (redis: Redis) => Promise<T>, fallback: T): Promise<T> => {
    if (Date.now() < skipUntil) return fallback;
    try {
      return await run(await connect());
    } catch (error) {
      skipUntil = Date.now() + timeoutMs;
      report(error as Error);
      return fallback;
    }
  };
  return {
    hit: (key, windowMs) =>
      failOpen<CounterState>(
        async (redis) => {
          const [hits, ttl] = (await (
            redis as Redis & { gatehouseRateLimitHit: (key: string, windowMs: number) => Promise<[number, number]> }
          ).gatehouseRateLimitHit(key, Math.max(1, Math.ceil(windowMs)))) as [number, number];
          return { hits: Number(hits), resetInMs: Math.max(0, Number(ttl)) };
        },
        { hits: 1, resetInMs: windowMs },
      ),
    peek: (key) =>
      failOpen<CounterState>(
        async (redis) => {
          const [[getError, hits], [ttlError, ttl]] = ((await redis.multi().get(key).pttl(key).exec()) ?? []) as [
            [Error | null, string | null],
            [Error | null, number],
          ];
          if (getError || ttlError) throw getError ?? ttlError;
          return hits === null || Number(ttl) <= 0 ? { hits: 0, resetInMs: 0 } : { hits: Number(hits), resetInMs: Number(ttl) };
        },
        { hits: 0, resetInMs: 0 },
      ),
    forget: (key) =>
      failOpen(async (redis) => {
        await redis.del(key);
      }, undefined),
    release: (key) =>
      failOpen(async (redis) => {
        await (redis as Redis & { gatehouseRateLimitRelease: (key: string) => Promise<number> }).gatehouseRateLimitRelease(key);
      }, undefined),
    close: async () => {
      if (closed || !client) return;
      closed = true;
      const redis = await client;
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** `REDIS_URL` as the server reads it: empty or unset means the Postgres counter; anything else must be a redis:// or rediss:// URL. */
export function readRedisUrl(environment: NodeJS.ProcessEnv): string | undefined {
  const value = environment.REDIS_URL;
  if (value === undefined || value === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  // The value is not echoed: it may carry a password.
  if (!url || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || !url.hostname)
    throw new Error('REDIS_URL must look like redis://[user:password@]host[:port][/db] (or rediss:// for TLS)');
  if (url.pathname !== '' && url.pathname !== '/' && !/^\/\d+$/.test(url.pathname))
    throw new Error('REDIS_URL must end in a database number (like /0), if anything');
  return value;
}
