import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { ContractResponse } from './contract.ts';
import type { TestEnvironment, TestProject } from './test-context.ts';

/** The app's side of an OAuth sign-in in tests: the authorize query, the provider round trip, the code exchange. */

export const appCallback = 'https://app.example.com/handler/oauth-callback';
export const trustedDomains = { app: { baseUrl: 'https://app.example.com', handlerPath: '/handler' } };

export const ownKeys = (type: string, extra: Record<string, unknown> = {}) => ({
  type,
  isShared: false,
  // Alphanumeric: the mock provider does not decode the form-encoded Basic credentials it puts in the ID token's audience.
  clientId: `${type}client`,
  clientSecret: `${type}secret`,
  allowSignIn: true,
  allowConnectedAccounts: true,
  ...extra,
});

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export type FlowOptions = {
  provider?: string;
  project?: TestProject;
  type?: 'authenticate' | 'link';
  token?: string;
  providerScope?: string;
  errorRedirectUri?: string;
  afterCallbackRedirectUrl?: string;
  json?: boolean;
  query?: Record<string, string>;
};

export function authorizeQuery(project: TestProject, challenge: string, options: FlowOptions = {}) {
  return new URLSearchParams({
    client_id: project.project.id,
    client_secret: project.keys.publishable_client_key,
    redirect_uri: appCallback,
    scope: 'legacy',
    state: 'app-state',
    grant_type: 'authorization_code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    response_type: 'code',
    ...(options.type ? { type: options.type } : {}),
    ...(options.token ? { token: options.token } : {}),
    ...(options.providerScope ? { provider_scope: options.providerScope } : {}),
    ...(options.errorRedirectUri ? { error_redirect_uri: options.errorRedirectUri } : {}),
    ...(options.afterCallbackRedirectUrl ? { after_callback_redirect_url: options.afterCallbackRedirectUrl } : {}),
    ...(options.json ? { stack_response_mode: 'json', hexclave_response_mode: 'json' } : {}),
    ...options.query,
  });
}

export const innerCookieOf = (response: ContractResponse): string | undefined =>
  [response.headers['set-cookie'] ?? []]
    .flat()
    .map(String)
    .find((cookie) => cookie.startsWith('stack-oauth-inner-'))
    ?.split(';')[0];

export function oauthFlows(env: TestEnvironment) {
  const authorize = (provider: string, query: URLSearchParams) =>
    env.context.request({ url: `/api/v1/auth/oauth/authorize/${provider}?${query}`, operation: 'redirectToOAuthProvider' });

  /** Authorize, then the provider's (auto-approving) page: the callback URL it sends the browser to, and the flow's cookie. */
  async function toProvider(options: FlowOptions = {}) {
    const project = options.project ?? env.project;
    const { verifier, challenge } = pkce();
    const response = await authorize(options.provider ?? 'google', authorizeQuery(project, challenge, options));
    expect(response.status, response.text).toBe(options.json ? 200 : 307);
    const location = options.json ? response.body.location : String(response.headers.location);
    const cookie = innerCookieOf(response);
    const approval = await fetch(location, { redirect: 'manual' });
    expect(approval.status).toBe(302);
    const callback = new URL(approval.headers.get('location') as string);
    return { callback, cookie, verifier, location, project };
  }

  /** The provider's redirect to our callback: the app's redirect (or the answer when it fails). */
  const callback = (url: URL, cookie: string | undefined) =>
    env.context.request({ url: `${url.pathname}${url.search}`, headers: cookie ? { cookie } : {}, operation: 'redirectFromOAuthProvider' });

  const exchange = (project: TestProject, code: string, verifier: string, redirectUri = appCallback) =>
    env.context.request({
      method: 'POST',
      url: '/api/v1/auth/oauth/token',
      operation: 'exchangeOAuthToken',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
        client_id: project.project.id,
        client_secret: project.keys.publishable_client_key,
      }).toString(),
    });

  /** The whole round trip up to the app's code. */
  async function toCode(options: FlowOptions = {}) {
    const started = await toProvider(options);
    const answer = await callback(started.callback, started.cookie);
    expect(answer.status, answer.text).toBe(303);
    const redirect = new URL(String(answer.headers.location));
    return { ...started, redirect, code: redirect.searchParams.get('code') as string };
  }

  /** The whole round trip and the code exchange: the token endpoint's answer. */
  async function signIn(options: FlowOptions = {}) {
    const { code, verifier, project } = await toCode(options);
    return exchange(project, code, verifier);
  }

  return { authorize, toProvider, callback, exchange, toCode, signIn };
}
