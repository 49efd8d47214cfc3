import { KnownError } from '@gatehouse/protocol/errors';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isConnectionFailure } from '../db/connection-failure.ts';
import { ScimProtocolError } from '../lib/scim-error.ts';
import { describeValidationError } from './describe-validation-error.ts';

/** Whether the request is a SCIM protocol operation (its answers are `application/scim+json`). */
export function isScimOperation(request: FastifyRequest): boolean {
  const operation = (request.routeOptions?.config as { operation?: { specPath: string } } | undefined)?.operation;
  return operation?.specPath.startsWith('/scim/') ?? false;
}

/**
 * Answers any error of a SCIM operation in SCIM's shape (RFC 7644 §3.12): malformed input is a 400
 * (`invalidSyntax` or `invalidValue`), never a 500; an unexpected failure is a logged 500 that reveals nothing.
 */
export function sendScimError(request: FastifyRequest, reply: FastifyReply, error: FastifyError): FastifyReply {
  const scim = toScimError(error);
  if (!scim) {
    request.log.error({ err: error }, isConnectionFailure(error) ? 'the database is unavailable' : 'unhandled error');
    return reply
      .status(isConnectionFailure(error) ? 503 : 500)
      .type('application/scim+json; charset=utf-8')
      .send({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '500', detail: 'Internal server error.' });
  }
  return reply.status(scim.status).type('application/scim+json; charset=utf-8').send(scim.body);
}

function toScimError(error: FastifyError): ScimProtocolError | undefined {
  if (error instanceof ScimProtocolError) return error;
  if (error.validation) return new ScimProtocolError(400, describeValidationError(error), 'invalidValue');
  if (error.code?.startsWith('FST_ERR_CTP_') || error instanceof SyntaxError || (error instanceof KnownError && error.status === 400))
    return new ScimProtocolError(400, `The request is not readable: ${error.message}`, 'invalidSyntax');
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500)
    return new ScimProtocolError(400, error.message, 'invalidValue');
  return undefined;
}
