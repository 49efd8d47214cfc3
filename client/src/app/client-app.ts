import type { OperationInput, OperationRef } from '../api-client.ts';
import {
  CannotGetOwnUserWithoutUserError,
  InvalidAccessTokenError,
  RefreshTokenError,
  UserAuthenticationRequiredError,
} from '../errors.ts';
import type { OperationName } from '@gatehouse/protocol/operations';
import type { CrossTabOptions } from '../session/cross-tab-refresh.ts';
import { createSessionClient } from '../session-client.ts';
import { createCookieTokenStore } from '../token-store/cookie-token-store.ts';
import { createLocalStorageTokenStore } from '../token-store/local-storage-token-store.ts';
import { createMemoryTokenStore } from '../token-store/memory-token-store.ts';
import type { SessionTokens, TokenStore } from '../token-store/token-store.ts';
import type { AppCall } from './app-call.ts';
import type { ClientCurrentUserData, ClientProject } from './app-types.ts';
import { type ClientSignIn, clientSignIn } from './client-sign-in.ts';
import { type CurrentUser, currentUser } from './current-user.ts';
import { browserPasskeyCeremonies, type PasskeyCeremonies } from './passkey-ceremonies.ts';
import * as op from '@gatehouse/protocol/operations';

export type ClientAppOptions = CrossTabOptions & {
  /** Where the platform is, e.g. `https://auth.example.com` (the SDK adds `/api/v1`). */
  baseUrl: string;
  projectId: string;
  /** Optional when the project does not require one. */
  publishableClientKey?: string;
  /** Where the session's tokens live: `memory` (default), `cookie`, `localStorage`, or your own store. */
  tokenStore?: 'memory' | 'cookie' | 'localStorage' | TokenStore;
  /** The WebAuthn relying-party id of passkeys; the page's hostname by default. */
  passkeyRpId?: string;
  /** The WebAuthn ceremonies; `navigator.credentials` by default. */
  passkeyCeremonies?: PasskeyCeremonies;
  fetch?: typeof fetch;
};

/** What `getUser` does when nobody is signed in (anonymous users count as nobody unless asked for). */
export type GetUserOr = 'return-null' | 'throw' | 'anonymous';

export type ClientApp = ClientSignIn & {
  readonly projectId: string;
  /** Revokes the current session on the server (if it is still there) and clears the token store. */
  signOut(): Promise<void>;
  /** The signed-in user, or null; anonymous users only with `or: 'anonymous'`. */
  getUser(options?: { or?: 'return-null' }): Promise<CurrentUser | null>;
  /**
   * `throw`: UserAuthenticationRequiredError when nobody is signed in. `anonymous`: signs up an
   * anonymous user when nobody is (one sign-up, shared by concurrent callers).
   */
  getUser(options: { or: 'throw' | 'anonymous' }): Promise<CurrentUser>;
  getProject(): Promise<ClientProject>;
  /** A fresh access token of the session (refreshed when about to expire), e.g. for your own backend. */
  getAccessToken(): Promise<string | undefined>;
  getTokens(): SessionTokens;
  /** Called on every sign-in, refresh and sign-out (also another tab's); returns the unsubscribe function. */
  onSessionChange(listener: (tokens: SessionTokens) => void): () => void;
  /** Any operation of the spec with this app's credentials and session. */
  call: AppCall;
};

/** Codes that mean "nobody is signed in"; the session has been cleared by the time they arrive. */
const SIGNED_OUT_ERRORS = [CannotGetOwnUserWithoutUserError, InvalidAccessTokenError, RefreshTokenError, UserAuthenticationRequiredError];
const isSignedOutError = (error: unknown) => SIGNED_OUT_ERRORS.some((errorClass) => error instanceof errorClass);

/**
 * The app of a browser, mobile or CLI client: sign-up and sign-in, and the signed-in user with its
 * teams, permissions, contact channels, sessions and API keys. Data keeps the spec's field names;
 * request bodies of resources (`user.update`, `user.createTeam`...) are the spec's bodies.
 *
 * @example
 * ```ts
 * const app = createClientApp({ baseUrl: 'http://localhost:8102', projectId, publishableClientKey, tokenStore: 'cookie' });
 * await app.signInWithPassword({ email: 'ada@example.com', password: 'correct horse battery' });
 * const user = await app.getUser({ or: 'throw' });
 * const team = await user.createTeam({ display_name: 'Analytical Engines' });
 * if (await user.hasPermission(team, '$invite_members')) await team.inviteUser({ email: 'charles@example.com', callbackUrl });
 * await app.signOut();
 * ```
 */
export function createClientApp(options: ClientAppOptions): ClientApp {
  const client = createSessionClient({
    ...options,
    accessType: 'client',
    tokenStore: tokenStoreFor(options.tokenStore, options.projectId),
  });
  const { session } = client;
  const passkeys = { passkeyCeremonies: options.passkeyCeremonies ?? browserPasskeyCeremonies, passkeyRpId: options.passkeyRpId };
  let anonymousSignUp: Promise<void> | undefined;

  // The SDK always lets anonymous users' tokens through (docs/protocol/overview.md §2); getUser decides what to show.
  const call: AppCall = <Id extends OperationName>(operation: OperationRef<Id>, input: OperationInput<Id> = {}) =>
    client.call(operation, { ...input, headers: { 'x-stack-allow-anonymous-user': 'true', ...input.headers } });
  const setTokens = (tokens: { access_token: string; refresh_token: string }) =>
    session.setTokens({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token });

  async function signOut(): Promise<void> {
    try {
      if (!session.isInvalid) await call(op.deleteCurrentSession);
    } catch (error) {
      // Already ended on the server: forgetting it here is all that is left to do.
      if (!isSignedOutError(error)) throw error;
    } finally {
      session.signOut();
    }
  }

  async function fetchUser(): Promise<ClientCurrentUserData | null> {
    if (session.isInvalid) return null;
    try {
      return (await call(op.getCurrentUser)) as ClientCurrentUserData;
    } catch (error) {
      if (isSignedOutError(error)) return null;
      throw error;
    }
  }

  /** One anonymous sign-up at a time, shared by every caller that needs one meanwhile. */
  function signUpAnonymously(): Promise<void> {
    anonymousSignUp ??= (async () => {
      // Someone signed in while this caller was finding out nobody was.
      if (!session.isInvalid) return;
      setTokens(await call(op.signUpAnonymously));
    })().finally(() => {
      anonymousSignUp = undefined;
    });
    return anonymousSignUp;
  }

  const userHost = { call, signOut, forgetSession: () => session.signOut(), ...passkeys };

  async function getUser(getOptions: { or?: GetUserOr } = {}): Promise<CurrentUser | null> {
    const or = getOptions.or ?? 'return-null';
    // An anonymous sign-up in flight is the session these callers are about to have.
    if (anonymousSignUp && or === 'anonymous') await anonymousSignUp;
    let data = await fetchUser();
    if (data?.is_anonymous && or !== 'anonymous') data = null;
    if (!data && or === 'anonymous') {
      await signUpAnonymously();
      data = await fetchUser();
    }
    if (data) return currentUser(userHost, data);
    if (or === 'return-null') return null;
    throw new UserAuthenticationRequiredError("User is not signed in but getUser was called with { or: 'throw' }");
  }

  return {
    ...clientSignIn({ ...options, ...passkeys, call, setTokens }),
    projectId: options.projectId,
    signOut,
    getUser: getUser as ClientApp['getUser'],
    getProject: () => call(op.getCurrentProject) as Promise<ClientProject>,
    getAccessToken: () => session.getAccessToken(),
    getTokens: () => session.getTokens(),
    onSessionChange: (listener) => session.subscribe(listener),
    call,
  };
}

function tokenStoreFor(store: ClientAppOptions['tokenStore'], projectId: string): TokenStore {
  if (store === 'cookie') return createCookieTokenStore({ projectId });
  if (store === 'localStorage') return createLocalStorageTokenStore({ projectId });
  if (store === undefined || store === 'memory') return createMemoryTokenStore();
  return store;
}
