import { RefreshTokenNotFoundOrExpiredError } from '@gatehouse/protocol/errors';
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

/**
 * For operations that create lasting credentials or change how the user signs in (API keys, auth
 * contact channels, passwords, passkeys): a request made with a user access token needs that token's
 * session to still exist, so a signed-out token's remaining minutes mint nothing lasting.
 * REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED otherwise (the SDK treats it as signed out).
 */
export async function requireLiveSession(request: FastifyRequest): Promise<void> {
  const { sessionAlive } = authOf(request);
  if (sessionAlive && !(await sessionAlive())) throw new RefreshTokenNotFoundOrExpiredError();
}
