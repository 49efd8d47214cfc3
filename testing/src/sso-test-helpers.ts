import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { appCallback, pkce } from './oauth-test-flow.ts';
import type { TestContext, TestProject } from './test-context.ts';

/** The app's side of an SSO sign-in in tests: authorize, then the token endpoint's exchange. */
export function ssoFlows(context: () => TestContext) {
  const authorize = async (project: TestProject, connectionId: string, extra: Record<string, string> = {}) => {
    const { verifier, challenge } = pkce();
    const query = new URLSearchParams({
      client_id: project.project.id,
      client_secret: project.keys.publishable_client_key,
      redirect_uri: appCallback,
      state: 'app-state',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    });
    const response = await context().request({ method: 'GET', url: `/api/v1/auth/sso/authorize/${connectionId}?${query}` });
    return { response, verifier, location: String(response.headers.location ?? '') };
  };

  const postAcs = (connectionId: string, samlResponse: string) =>
    context().request({
      method: 'POST',
      url: `/api/v1/auth/sso/saml/${connectionId}/acs`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: '' }).toString(),
    });

  /** The code of a redirect to the app, exchanged: the signed-in user's tokens. */
  const exchange = async (project: TestProject, location: string, verifier: string) => {
    const url = new URL(location);
    expect(url.origin + url.pathname).toBe(appCallback);
    expect(url.searchParams.get('state')).toBe('app-state');
    const response = await context().request({
      method: 'POST',
      url: '/api/v1/auth/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        code: url.searchParams.get('code') ?? '',
        redirect_uri: appCallback,
        code_verifier: verifier,
        client_id: project.project.id,
        client_secret: project.keys.publishable_client_key,
      }).toString(),
    });
    expect(response.status, response.text).toBe(200);
    return response.body as { access_token: string; is_new_user: boolean; user_id?: string };
  };

  return { authorize, postAcs, exchange };
}

export const newEmail = (label: string, domain = 'acme.test') => `${label}-${randomUUID().slice(0, 8)}@${domain}`;
