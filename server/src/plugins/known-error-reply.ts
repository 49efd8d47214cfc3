import { type KnownError, RateLimitedError } from '@gatehouse/protocol/errors';
import type { FastifyReply } from 'fastify';

/**
 * The one way a catalogued error leaves the server: envelope body plus both known-error headers. A 429 goes
 * without them: Stack's SDKs look for the header before the status, so a 429 naming itself a known error would
 * be thrown as an unknown code instead of waited out and retried (it carries Retry-After instead).
 */
export function sendKnownError(reply: FastifyReply, error: KnownError): FastifyReply {
  if (error instanceof RateLimitedError) reply.header('retry-after', String(error.details.retry_after_seconds));
  else reply.header('x-stack-known-error', error.code).header('x-hexclave-known-error', error.code);
  return reply.status(error.status).type('application/json; charset=utf-8').send(JSON.stringify(error.toBody()));
}
