import { BodyParsingError, DatabaseBusyError, DatabaseUnavailableError, KnownError, SchemaError } from '@gatehouse/protocol/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isConnectionFailure } from '../db/connection-failure.ts';
import { ScimProtocolError } from '../lib/scim-error.ts';
import { describeValidationError } from './describe-validation-error.ts';
import { isScimOperation, sendScimError } from './scim-error-reply.ts';
import { sendKnownError } from './known-error-reply.ts';
import { methodsForPath } from './path-methods.ts';
import { setSecurityHeaders } from './response-headers.ts';

/**
 * One error handler for the whole API: catalogued errors to the envelope, a database that cannot be
 * reached or lost the request's connection to DATABASE_UNAVAILABLE (db/connection-failure.ts),
 * validation failures to SCHEMA_ERROR, unreadable bodies to BODY_PARSING_ERROR, and anything else to
 * a logged 500 that reveals nothing.
 */
export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isScimOperation(request)) return sendScimError(request, reply, error);
    if (error instanceof DatabaseBusyError) {
      request.log.warn({ err: error }, 'no database connection became free in time');
      return sendKnownError(reply.header('retry-after', String(retryAfterBusySeconds)), error);
    }
    if (error instanceof KnownError) return sendKnownError(reply, error);
    if (isConnectionFailure(error)) {
      request.log.warn({ err: error }, 'the database is unavailable (unreachable or the connection was lost)');
      return sendKnownError(reply.header('retry-after', String(retryAfterUnavailableSeconds)), new DatabaseUnavailableError());
    }
    if (error.validation) {
      const message = describeValidationError(error);
      return sendKnownError(reply, new SchemaError({ message }, message));
    }
    if (isBodyParsingFailure(error)) return sendKnownError(reply, new BodyParsingError(bodyParsingMessage(error)));
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      return sendPlain(reply, error.statusCode, error.message);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendPlain(reply, 500, 'Internal server error. The request id in x-stack-request-id identifies it in the server log.');
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = methodsForPath(path);
    if (allowed.length > 0)
      return sendPlain(reply.header('allow', allowed.join(', ')), 405, `Method ${request.method} is not allowed on ${path}`);
    return sendPlain(reply, 404, `No endpoint at ${request.method} ${path}`);
  });
});

/** What a client told DATABASE_BUSY waits before trying again. */
const retryAfterBusySeconds = 1;
/** What a client told DATABASE_UNAVAILABLE waits before trying again (a restart or failover takes seconds). */
const retryAfterUnavailableSeconds = 2;

/**
 * Fastify's `frameworkErrors`: failures of the router, before any route or hook runs. A path whose
 * `%` escapes do not decode, or with a parameter over the router's 500 characters, is SCHEMA_ERROR.
 */
export function routerErrorReply(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const message =
    error.code === 'FST_ERR_BAD_URL'
      ? 'The path is not valid: a %-escape in it does not decode to UTF-8 text'
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? 'A path parameter is longer than 500 characters'
        : error.message;
  // Hooks do not run for router failures: the request id is set here.
  setSecurityHeaders(reply);
  reply.header('x-stack-request-id', request.id).header('x-hexclave-request-id', request.id).header('cache-control', 'no-store, max-age=0');
  // No route matched yet, so isScimOperation cannot tell: a SCIM path is known by its prefix, and SCIM clients read SCIM's shape.
  if (scimPath.test(request.url)) {
    const scim = new ScimProtocolError(400, message, 'invalidValue');
    void reply.status(scim.status).type('application/scim+json; charset=utf-8').send(scim.body);
    return;
  }
  void sendKnownError(reply, new SchemaError({ message }, message));
}

const scimPath = /^\/api\/v1\/scim\/v2\//;

const sendPlain = (reply: FastifyReply, status: number, message: string) =>
  reply.status(status).type('text/plain; charset=utf-8').send(message);

function isBodyParsingFailure(error: FastifyError): boolean {
  return (error.code?.startsWith('FST_ERR_CTP_') ?? false) || error instanceof SyntaxError;
}

function bodyParsingMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type: send application/json, application/x-www-form-urlencoded, text/plain or application/octet-stream';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large';
    default:
      return `The request body could not be read: ${error.message}`;
  }
}
