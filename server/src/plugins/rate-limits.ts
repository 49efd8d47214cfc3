import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { RateLimit } from '../config/rate-limits.ts';

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

/** The per-email limit, once the body is validated: one address cannot be flooded from many IPs. */
export function perEmailLimit(app: FastifyInstance, bucket: string, limit: RateLimit) {
  if (!limit.perEmail) return undefined;
  return app.rateLimit({
    max: limit.perEmail,
    timeWindow: limit.windowSeconds * 1000,
    keyGenerator: (request) => {
      const email = (request.body as { email?: unknown } | undefined)?.email;
      const project = request.auth?.project.id ?? '';
      return `${bucket}:email:${project}:${typeof email === 'string' ? email.toLowerCase() : request.ip}`;
    },
  });
}
