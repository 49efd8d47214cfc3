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

/**
 * The per-email limit, once the body is validated: one address cannot be flooded from many IPs.
 * A fixed window per key. (@fastify/rate-limit runs one limiter per request, so this one is ours.)
 */
export function perEmailLimit(bucket: string, limit: RateLimit) {
  const perEmail = limit.perEmail;
  if (!perEmail) return undefined;
  const windows = new Map<string, { count: number; resetAt: number }>();
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const email = (request.body as { email?: unknown } | undefined)?.email;
    if (typeof email !== 'string') return;
    const now = Date.now();
    if (windows.size > 100_000) for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key);
    const key = `${bucket}:${request.auth?.project.id ?? ''}:${email.toLowerCase()}`;
    let window = windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + limit.windowSeconds * 1000 };
      windows.set(key, window);
    }
    window.count += 1;
    if (window.count > perEmail) {
      const retryAfter = Math.max(1, Math.ceil((window.resetAt - now) / 1000));
      reply.header('retry-after', String(retryAfter));
      throw new PlainHttpError(429, `Too many requests for this email. Try again in ${retryAfter} seconds.`);
    }
  };
}
