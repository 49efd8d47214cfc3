import type { Session } from '@gatehouse/client';
import { CannotGetOwnUserWithoutUserError } from '@gatehouse/protocol/errors';

/** Whether the session holds a token at all; without one, user data is empty and no request is made. */
export function hasTokens(session: Session): boolean {
  const tokens = session.getTokens();
  return Boolean(tokens.refreshToken || tokens.accessToken);
}

/**
 * Runs a request for the signed-in user's data, or answers `empty` when there is no user: no
 * tokens, or the server no longer accepts them (the session ended elsewhere).
 */
export async function whenSignedIn<T>(session: Session, empty: T, request: () => Promise<T>): Promise<T> {
  if (!hasTokens(session)) return empty;
  try {
    return await request();
  } catch (error) {
    if (error instanceof CannotGetOwnUserWithoutUserError) return empty;
    throw error;
  }
}
