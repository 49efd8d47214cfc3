import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { RateLimit } from '../config/rate-limits.ts';
import { RateLimitedError } from '@gatehouse/protocol/errors';

/** Counts hits per key in fixed windows, in a store every instance shares: a Postgres table, or Redis when REDIS_URL is set (modules/platform/rate-limit-counters). */
export type RateLimitCounter = {
  /** Counts one hit of `key` in its window of `windowMs` (a new window when the last one ended). */
  hit: (key: string, windowMs: number) => Promise<CounterState>;
  /** The hits of `key` in its current window, without counting one (0 when none is running). */
  peek: (key: string) => Promise<CounterState>;
  /** Drops `key`'s window (a success forgets failures). */
  forget: (key: string) => Promise<void>;
  /** Takes back one hit of `key` in its running window (an attempt counted up front that turned out not to be a failure). */
  release: (key: string) => Promise<void>;
  /** Lets go of the store's connection (Redis), when the app closes. */
  close?: () => Promise<void>;
};
export type CounterState = { hits: number; resetInMs: number };

declare module 'fastify' {
  interface FastifyInstance {
    rateLimitCounter: RateLimitCounter;
  }
}

/**
 * Rate limits are per route (`x-rate-limit` in the spec). The client IP is `request.ip`, which
 * honours X-Forwarded-For only from the proxies TRUST_PROXY names, so a spoofed header cannot buy a
 * fresh bucket. Answers 429 RATE_LIMITED (typed JSON without the known-error header, see known-error-reply.ts) with Retry-After; the SDKs wait and retry. Hits are counted
 * by `counter`, shared by every instance on the database, so N instances do not allow N times the limit.
 */
export const rateLimitsPlugin = fp(async (app: FastifyInstance, options: { counter: RateLimitCounter }) => {
  const { counter } = options;
  app.decorate('rateLimitCounter', counter);
  /** @fastify/rate-limit's store interface over the shared counter (one store serves every route). */
  class SharedStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      counter.hit(key, timeWindow).then(
        ({ hits, resetInMs }) => callback(null, { current: hits, ttl: resetInMs }),
        (error: Error) => callback(error),
      );
    }
    child() {
      return this;
    }
  }
  await app.register(rateLimit, {
    global: false,
    store: SharedStore,
    addHeaders: { 'retry-after': true, 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true },
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new RateLimitedError({ retry_after_seconds: seconds }, `Too many requests. Try again in ${seconds} seconds.`);
    },
  });
});

/** The per-IP limit, checked before anything else of the request is read. */
export const perIpLimit = (bucket: string, limit: RateLimit) => ({
  max: limit.perIp,
  timeWindow: limit.windowSeconds * 1000,
  hook: 'onRequest' as const,
  keyGenerator: (request: FastifyRequest) => `${bucket}:ip:${request.ip}`,
});

const tooMany = (resetInMs: number, what: string) => {
  const retryAfter = Math.max(1, Math.ceil(resetInMs / 1000));
  return new RateLimitedError({ retry_after_seconds: retryAfter }, `Too many ${what}. Try again in ${retryAfter} seconds.`);
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
  const windowMs = limit.windowSeconds * 1000;
  const emailOf = (request: FastifyRequest) => {
    const email = (request.body as { email?: unknown } | undefined)?.email;
    return typeof email === 'string' ? `${bucket}:email:${request.auth?.project.id ?? ''}:${email.toLowerCase()}` : undefined;
  };
  if (!limit.failuresOnly) {
    return {
      preHandler: async (request: FastifyRequest) => {
        const key = emailOf(request);
        if (!key) return;
        const window = await request.server.rateLimitCounter.hit(key, windowMs);
        if (window.hits > perEmail) throw tooMany(window.resetInMs, 'requests for this email');
      },
      onSend: undefined,
    };
  }
  const budget = emailFailureBudget(limit);
  const pairOf = (emailKey: string, request: FastifyRequest) => `${emailKey}:ip:${request.ip}`;
  // Attempts counted up front, before the password is checked: parallel attempts from one IP each take
  // a place in the window and those past `perEmail` are refused, instead of all passing one check
  // made before any of them was counted. The outcome then keeps, forgets or takes back that place.
  const countedUpFront = new WeakSet<FastifyRequest>();
  return {
    preHandler: async (request: FastifyRequest) => {
      const key = emailOf(request);
      if (!key) return;
      const counter = request.server.rateLimitCounter;
      const pair = await counter.hit(pairOf(key, request), windowMs);
      countedUpFront.add(request);
      if (pair.hits > perEmail) throw tooMany(pair.resetInMs, 'failed attempts for this email from this address');
      const overBudget = (await counter.peek(key)).hits - budget;
      if (overBudget > 0) await new Promise((resolve) => setTimeout(resolve, failureDelayMillis(overBudget)));
    },
    // Settled before the answer leaves (onSend, not onResponse): a client that sends its next attempt
    // the moment it reads this one must find this one settled, also on a busy server.
    onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      await recordOutcome(request, reply);
      return payload;
    },
  };
  async function recordOutcome(request: FastifyRequest, reply: FastifyReply) {
    const key = emailOf(request);
    if (!key) return;
    const status = Number(reply.getHeader('x-stack-actual-status') ?? reply.statusCode);
    const counter = request.server.rateLimitCounter;
    const pair = pairOf(key, request);
    const counted = countedUpFront.has(request);
    if (status < 300) return counter.forget(pair);
    // Refused before trying: its place in the window stays taken (the IP is over its limit anyway).
    if (status === 429) return;
    // A correct password that still needs the second factor, or a failure of ours: not a failed guess.
    if (reply.getHeader('x-stack-known-error') === 'MULTI_FACTOR_AUTHENTICATION_REQUIRED' || status >= 500) {
      if (counted) await counter.release(pair);
      return;
    }
    // Refused before the handler (its body did not validate): counted here, as a failure.
    if (!counted) await counter.hit(pair, windowMs);
    await counter.hit(key, windowMs);
  }
}
