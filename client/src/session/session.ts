import { createMemoryTokenStore } from '../token-store/memory-token-store.ts';
import { presentTokens, type SessionTokens, type TokenStore } from '../token-store/token-store.ts';
import { isValidFor } from './access-token-expiry.ts';
import { type CrossTabOptions, createCrossTabRefresh, type RefreshAnnouncement } from './cross-tab-refresh.ts';
import { requestRefreshGrant } from './refresh-grant.ts';

/** The SDK refreshes when less than this is left on the access token (docs/protocol/overview.md §6). */
export const REFRESH_MARGIN_MS = 20_000;

export type SessionOptions = CrossTabOptions & {
  baseUrl: string;
  projectId: string;
  publishableClientKey?: string;
  tokenStore?: TokenStore;
  fetch?: typeof fetch;
};

export type Session = {
  getTokens(): SessionTokens;
  /** No tokens: never signed in, signed out, or the server ended the session. */
  readonly isInvalid: boolean;
  /** After a sign-in: stores the tokens the server returned. */
  setTokens(tokens: SessionTokens): void;
  /** Forgets the tokens here; revoke on the server first with `deleteCurrentSession`. */
  signOut(): void;
  /** An access token good for at least REFRESH_MARGIN_MS, refreshing first when needed and possible. */
  getAccessToken(): Promise<string | undefined>;
  /** Drops an access token the server rejected (only if it is still the stored one). */
  markAccessTokenExpired(accessToken: string): void;
  /**
   * One shared refresh: resolves to an access token good for REFRESH_MARGIN_MS (the stored one if it
   * still is, e.g. because another tab refreshed), or undefined once the session is over.
   */
  refresh(): Promise<string | undefined>;
  /** Tells the listener about every change of the tokens; returns the unsubscribe function. */
  subscribe(listener: (tokens: SessionTokens) => void): () => void;
};

/** The signed-in state of one user for one project, kept in a TokenStore. */
export function createSession(options: SessionOptions): Session {
  const store = options.tokenStore ?? createMemoryTokenStore();
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const listeners = new Set<(tokens: SessionTokens) => void>();
  const crossTab = createCrossTabRefresh(`gatehouse-refresh-${options.projectId}`, options, adoptAnnouncement);
  let inflight: Promise<string | undefined> | undefined;

  const notify = () => {
    const tokens = store.get();
    for (const listener of listeners) listener(tokens);
  };
  store.subscribe?.(notify);

  function write(tokens: SessionTokens) {
    const next = presentTokens(tokens);
    if (next.accessToken || next.refreshToken) store.set(next);
    else store.clear();
    notify();
  }

  /** Another tab refreshed this very session: take its outcome instead of refreshing again. */
  function adoptAnnouncement(message: RefreshAnnouncement) {
    if (message.type !== 'refreshed' || store.get().refreshToken !== message.refreshToken) return;
    write(message.accessToken ? { refreshToken: message.refreshToken, accessToken: message.accessToken } : {});
  }

  async function refreshExclusively(): Promise<string | undefined> {
    // Read again now that we hold the lock: another tab (or an earlier refresh here) may be done.
    const current = store.get();
    if (current.accessToken && isValidFor(current.accessToken, REFRESH_MARGIN_MS)) return current.accessToken;
    const refreshToken = current.refreshToken;
    if (!refreshToken) {
      write({});
      return undefined;
    }
    // Every "refreshing" is followed by an outcome, or the other tabs would wait for nothing.
    let outcome: RefreshAnnouncement = { type: 'refresh-failed' };
    crossTab.announce({ type: 'refreshing' });
    try {
      const accessToken = await requestRefreshGrant({ ...options, fetch: fetchImpl }, refreshToken);
      // A sign-out or a new sign-in during the refresh wins over its result.
      if (store.get().refreshToken !== refreshToken) return store.get().accessToken;
      write(accessToken ? { refreshToken, accessToken } : {});
      outcome = { type: 'refreshed', refreshToken, accessToken };
      return accessToken;
    } finally {
      crossTab.announce(outcome);
    }
  }

  const session: Session = {
    getTokens: () => store.get(),
    get isInvalid() {
      const tokens = store.get();
      return !tokens.accessToken && !tokens.refreshToken;
    },
    setTokens: (tokens) => write(tokens),
    signOut: () => write({}),
    async getAccessToken() {
      const { accessToken, refreshToken } = store.get();
      if (accessToken && isValidFor(accessToken, REFRESH_MARGIN_MS)) return accessToken;
      // Without a refresh token, send what we have and let the server judge it.
      if (!refreshToken) return accessToken;
      return session.refresh();
    },
    markAccessTokenExpired(accessToken) {
      const tokens = store.get();
      if (tokens.accessToken === accessToken) write({ refreshToken: tokens.refreshToken });
    },
    refresh() {
      inflight ??= crossTab.exclusive(refreshExclusively).finally(() => {
        inflight = undefined;
      });
      return inflight;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return session;
}
