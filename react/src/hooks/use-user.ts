import type { Session } from '@gatehouse/client';
import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import { use } from 'react';
import { useGatehouse } from '../gatehouse-context.ts';
import { getCurrentUser, getGetCurrentUserQueryKey } from '../generated/hooks.ts';
import type { CurrentUser } from '../generated/hooks.schemas.ts';
import { navigateFromRender, withReturnTo } from '../navigation.ts';
import { whenSignedIn } from './signed-in.ts';

export type UseUserOptions = {
  /**
   * What to do without a (non-anonymous) user: return null (default), `redirect` to the sign-in
   * page (coming back here afterwards), `throw` a UserNotSignedInError, or sign up an `anonymous` user.
   */
  or?: 'return-null' | 'redirect' | 'throw' | 'anonymous';
};

/** What `useUser({ or: 'throw' })` throws without a user, in the protocol's words (Stack's SDK says the same). */
export class UserNotSignedInError extends Error {
  constructor() {
    super("User is not signed in but useUser was called with { or: 'throw' }");
    this.name = 'UserNotSignedInError';
  }
}

/** The query of the signed-in user (`GET /users/me`); null when nobody is signed in. */
export function currentUserQuery(session: Session) {
  return queryOptions({
    queryKey: getGetCurrentUserQueryKey(),
    queryFn: ({ signal }) => whenSignedIn<CurrentUser | null>(session, null, () => getCurrentUser({ signal })),
  });
}

/**
 * The signed-in user. Suspends while loading (render it under `<Suspense>`).
 *
 * @example
 * const user = useUser({ or: 'redirect' });
 * return <p>Hello {user.display_name}</p>;
 */
export function useUser(options: { or: 'redirect' | 'throw' | 'anonymous' }): CurrentUser;
export function useUser(options?: UseUserOptions): CurrentUser | null;
export function useUser(options: UseUserOptions = {}): CurrentUser | null {
  const gatehouse = useGatehouse();
  if (options.or === 'anonymous' && !gatehouse.session.getTokens().refreshToken) use(gatehouse.ensureAnonymousSession());
  const { data } = useSuspenseQuery(currentUserQuery(gatehouse.session));
  // Anonymous users exist only for the components that asked for them.
  const user = data && (!data.is_anonymous || options.or === 'anonymous') ? data : null;
  if (user) return user;
  if (options.or === 'throw') throw new UserNotSignedInError();
  if (options.or === 'redirect') {
    const signIn = withReturnTo(gatehouse.urls.signIn, window.location.href);
    // Suspends until the location changed; React then renders the app again, which shows the sign-in page.
    use(navigateFromRender(gatehouse.navigate, signIn, { replace: true }));
  }
  return null;
}
