import { CannotGetOwnUserWithoutUserError } from '@gatehouse/protocol/errors';
import { PlainHttpError } from '../lib/plain-http-error.ts';
import type { RequestAuth } from './request-auth.ts';

/**
 * A "user id or me" of a path, query or body (docs/protocol/overview.md §9): `me` is the token's user; client
 * access may only name itself.
 */
export function resolveUserId(auth: RequestAuth, requested: string): string {
  const own = auth.user?.record.id;
  if (requested === 'me') {
    if (!own) throw new CannotGetOwnUserWithoutUserError();
    return own;
  }
  const userId = requested.toLowerCase();
  if (auth.accessType === 'client' && userId !== own) throw new PlainHttpError(403, 'Client access can only read or change its own user.');
  return userId;
}
