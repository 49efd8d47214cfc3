import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { RateLimit } from '../config/rate-limits.ts';
import { PlainHttpError } from '../lib/plain-http-error.ts';

/**
 * Rate limits are per route (`x-rate-limit` in the spec). The client IP is `request.ip`, which
 * honours X-Forwarded-For only from the proxies TRUST_PROXY names, so a spoofed header cannot buy a
 * fresh bucket. Answers 429 in plain text with Retry-After; the SDKs wait and retry.
 */
export const rateLimitsPlugin = fp(async (app: FastifyInstance) => {
  await app.register(rateLimit, {
    global: false,
    addHeaders: { 'retry-after': true, 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true },
    errorResponseBuilder: (_request, context) =>
      Object.assign(new Error(`Too many requests. Try again in ${Math.max(1, Math.ceil(context.ttl / 1000))} seconds.`), {
        statusCode: 429,
      }),
  });
});

/** The per-IP limit, checked before anything else of the request is read. */
export const perIpLimit = (bucket: string, limit: RateLimit) => ({
  max: limit.perIp,
  timeWindow: limit.windowSeconds * 1000,
  hook: 'onRequest' as const,
  keyGenerator: (request: FastifyRequest) => `${bucket}:ip:${request.ip}`,
});

/** Fixed windows per key, forgotten once over (swept when the map grows large). */
class Windows {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  constructor(private readonly windowMillis: number) {}

  current(key: string, now: number) {
    if (this.windows.size > 100_000)
      for (const [candidate, window] of this.windows) if (window.resetAt <= now) this.windows.delete(candidate);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + this.windowMillis };
      this.windows.set(key, window);
    }
    return window;
  }

  peek(key: string, now: number): number {
    const window = this.windows.get(key);
    return window && window.resetAt > now ? window.count : 0;
  }

  forget(key: string): void {
    this.windows.delete(key);
  }
}

const tooMany = (reply: FastifyReply, resetAt: number, now: number, what: string) => {
  const retryAfter = Math.max(1, Math.ceil((resetAt - now) / 1000));
  reply.header('retry-after', String(retryAfter));
  return new PlainHttpError(429, `Too many ${what}. Try again in ${retryAfter} seconds.`);
};

/** Slowing of attempts on an address past its budget of failures: 100 ms, doubling per failure, at most 3 s. */
export const failureDelayMillis = (failuresOverBudget: number) => Math.min(100 * 2 ** Math.max(0, failuresOverBudget - 1), 3_000);
export const emailFailureBudget = (limit: RateLimit) => (limit.perEmail ?? 0) * 5;

/**
 * The per-email limit, once the body is validated (@fastify/rate-limit runs one limiter per request,
 * so this one is ours). Counting every request (`preHandler` alone): one address cannot be flooded
 * from many IPs. Counting failures (`failuresOnly`, sign-in): a client IP that failed `perEmail`
 * times on an address is refused on it for the rest of the window, other IPs are not; past the
 * address's wider budget every attempt on it waits `failureDelayMillis` first, so guessing from
 * many IPs stays slow while the rightful owner still signs in. A success forgets the IP's failures.
 */
export function perEmailLimit(bucket: string, limit: RateLimit) {
  const perEmail = limit.perEmail;
  if (!perEmail) return undefined;
  const windows = new Windows(limit.windowSeconds * 1000);
  const emailOf = (request: FastifyRequest) => {
    const email = (request.body as { email?: unknown } | undefined)?.email;
    return typeof email === 'string' ? `${bucket}:${request.auth?.project.id ?? ''}:${email.toLowerCase()}` : undefined;
  };
  if (!limit.failuresOnly) {
    return {
      preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
        const key = emailOf(request);
        if (!key) return;
        const now = Date.now();
        const window = windows.current(key, now);
        window.count += 1;
        if (window.count > perEmail) throw tooMany(reply, window.resetAt, now, 'requests for this email');
      },
      onResponse: undefined,
    };
  }
  const budget = emailFailureBudget(limit);
  const pairOf = (emailKey: string, request: FastifyRequest) => `${emailKey}:ip:${request.ip}`;
  return {
    preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
      const key = emailOf(request);
      if (!key) return;
      const now = Date.now();
      const pair = windows.current(pairOf(key, request), now);
      if (pair.count >= perEmail) throw tooMany(reply, pair.resetAt, now, 'failed attempts for this email from this address');
      const overBudget = windows.peek(key, now) - budget;
      if (overBudget > 0) await new Promise((resolve) => setTimeout(resolve, failureDelayMillis(overBudget)));
    },
    onResponse: async (request: FastifyRequest, reply: FastifyReply) => {
      const key = emailOf(request);
      if (!key) return;
      const status = Number(reply.getHeader('x-stack-actual-status') ?? reply.statusCode);
      if (status < 300) return windows.forget(pairOf(key, request));
      // Refused before trying (429), or a correct password that still needs the second factor: no failure.
      if (status === 429 || reply.getHeader('x-stack-known-error') === 'MULTI_FACTOR_AUTHENTICATION_REQUIRED' || status >= 500) return;
      const now = Date.now();
      windows.current(pairOf(key, request), now).count += 1;
      windows.current(key, now).count += 1;
    },
  };
}
