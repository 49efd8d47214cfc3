import type { FastifyRequest } from 'fastify';
import type { RequestAuth } from './request-auth.service.ts';

/** The authentication of an operation declared with `x-access-types` (registerOperations guarantees it). */
export function authOf(request: FastifyRequest): RequestAuth {
  if (!request.auth) throw new Error(`operation ${request.routeOptions.config.operation?.operationId} ran without authentication`);
  return request.auth;
}
