import type { KnownError } from '@gatehouse/protocol/errors';
import type { FastifyReply } from 'fastify';

/** The one way a catalogued error leaves the server: envelope body plus both known-error headers. */
export function sendKnownError(reply: FastifyReply, error: KnownError): FastifyReply {
  return reply
    .status(error.status)
    .header('x-stack-known-error', error.code)
    .header('x-hexclave-known-error', error.code)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(error.toBody()));
}
