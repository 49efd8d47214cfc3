import { useGatehouse } from '../gatehouse-context.ts';
import { deleteCurrentSession } from '../generated/hooks.ts';

/**
 * Signs out: the session is revoked on the server, the tokens forgotten here, and the browser goes
 * to the after-sign-out URL (or `redirectTo`).
 */
export function useSignOut(): (options?: { redirectTo?: string }) => Promise<void> {
  const { session, urls, navigate } = useGatehouse();
  return async (options = {}) => {
    if (session.getTokens().refreshToken) {
      // An already-ended session cannot be revoked twice; forgetting it here is what matters.
      await deleteCurrentSession().catch(() => undefined);
    }
    session.signOut();
    navigate(options.redirectTo ?? urls.afterSignOut, { replace: true });
  };
}
