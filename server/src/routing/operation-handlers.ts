import type { OperationBody, OperationParams, OperationQuery, OperationResult } from '@gatehouse/protocol/operation-types';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OperationId } from '../generated/route-table.ts';

export type OperationRequest<Id extends OperationId> = FastifyRequest<{
  Params: OperationParams<Id>;
  Querystring: OperationQuery<Id>;
  Body: OperationBody<Id>;
}>;

/**
 * A handler gets the validated request and returns the success body (serialised with the spec's
 * schema), or the reply itself when it answered another way (a redirect).
 */
export type OperationHandler<Id extends OperationId> = (
  request: OperationRequest<Id>,
  reply: FastifyReply,
) => Promise<OperationResult<Id> | FastifyReply>;

export type OperationHandlers = { [Id in OperationId]: OperationHandler<Id> };

const readsOwnTokenUser = Symbol('reads the token user itself');

/**
 * Marks a handler that confirms an access token's user exists in its own statement: request
 * authentication then skips its user read (one round trip less) and gives the claims as
 * `auth.unreadUser`. The handler must answer `tokenUserGoneError()` when the user is gone.
 */
export function readsTokenUser<H extends (...args: never[]) => unknown>(handler: H): H {
  return Object.assign(handler, { [readsOwnTokenUser]: true });
}

export const isReadingTokenUser = (handler: unknown): boolean =>
  typeof handler === 'function' && (handler as unknown as Record<symbol, unknown>)[readsOwnTokenUser] === true;
