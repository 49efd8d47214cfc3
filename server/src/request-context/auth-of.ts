import type { FastifyRequest } from 'fastify';
import type { UserRecord } from '../tenancy/user-record.ts';
import type { RequestAuth } from './request-auth.ts';

/** The authentication of an operation declared with `x-access-types` (registerOperations guarantees it). */
export function authOf(request: FastifyRequest): RequestAuth {
  if (!request.auth) throw new Error(`operation ${request.routeOptions.config.operation?.operationId} ran without authentication`);
  return request.auth;
}

/** The signed-in user of an operation declared with `x-user: required` or `me` (registerOperations guarantees it). */
export function userOf(request: FastifyRequest): UserRecord {
  const user = authOf(request).user;
  if (!user) throw new Error(`operation ${request.routeOptions.config.operation?.operationId} ran without a signed-in user`);
  return user.record;
}
