import { describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { oauthFlows, pkce } from '@gatehouse/testing/oauth-test-flow';
import { withTestContext } from '@gatehouse/testing/test-context';

const env = withTestContext({
  projectConfig: {
    'auth.password.allowSignIn': true,
    'domains.trustedDomains': {
      app: { baseUrl: 'https://app.example.com', handlerPath: '/handler' },
      shop: { baseUrl: 'https://shop.example.org', handlerPath: '/handler' },
    },
  },
});
const otherDomain = 'https://shop.example.org/handler/oauth-callback';

async function signUp(email: string) {
  const response = await env.context.request({
    method: 'POST',
    url: '/api/v1/auth/password/sign-up',
    headers: env.project.headers.client,
    payload: { email, password: 'correct horse battery' },
  });
  expect(response.status, response.text).toBe(200);
  return response.body as { access_token: string; refresh_token: string; user_id: string };
}

const authorize = (accessToken: string | undefined, body: Record<string, unknown>) =>
  env.context.request({
    method: 'POST',
    url: '/api/v1/auth/oauth/cross-domain/authorize',
    headers: { ...env.project.headers.client, ...(accessToken ? { 'x-stack-access-token': accessToken } : {}) },
    payload: body,
  });

describe('POST /auth/oauth/cross-domain/authorize', () => {
  it('gives a one-time code for another trusted domain that the token endpoint turns into a session of the same user', async () => {
    const user = await signUp('cross-domain@example.com');
    const { verifier, challenge } = pkce();
    const answer = await authorize(user.access_token, {
      redirect_uri: otherDomain,
      state: 'their-state',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      after_callback_redirect_url: '/cart',
    });
    expect(answer.status, answer.text).toBe(200);
    const redirect = new URL(answer.body.redirect_url);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(otherDomain);
    expect(redirect.searchParams.get('state')).toBe('their-state');
    const code = redirect.searchParams.get('code') as string;
    const flows = oauthFlows(env);
    const exchanged = await flows.exchange(env.project, code, verifier, otherDomain);
    expect(exchanged.status, exchanged.text).toBe(200);
    expect(exchanged.body.is_new_user).toBe(false);
    expect(exchanged.body.after_callback_redirect_url).toBe('/cart');
    const me = await env.context.request({
      url: '/api/v1/users/me',
      headers: { ...env.project.headers.client, 'x-stack-access-token': exchanged.body.access_token },
    });
    expect(me.body.id).toBe(user.user_id);
    expect(exchanged.body.refresh_token).not.toBe(user.refresh_token);
    // The code works once.
    expectError(await flows.exchange(env.project, code, verifier, otherDomain), 400, 'INVALID_AUTHORIZATION_CODE');
  });

  it('refuses an untrusted redirect_uri or after_callback_redirect_url, and a visitor who is not signed in', async () => {
    const user = await signUp('cross-domain-refused@example.com');
    const { challenge } = pkce();
    const base = { state: 's', code_challenge: challenge, code_challenge_method: 'S256' };
    expectError(
      await authorize(user.access_token, { ...base, redirect_uri: 'https://evil.example.net/handler/oauth-callback' }),
      400,
      'REDIRECT_URL_NOT_WHITELISTED',
    );
    expectError(
      await authorize(user.access_token, { ...base, redirect_uri: otherDomain, after_callback_redirect_url: 'https://evil.example.net/' }),
      400,
      'REDIRECT_URL_NOT_WHITELISTED',
    );
    // Localhost is a trusted target only while the project allows it.
    expectError(
      await authorize(user.access_token, { ...base, redirect_uri: 'http://localhost:3000/handler/oauth-callback' }),
      400,
      'REDIRECT_URL_NOT_WHITELISTED',
    );
    expectError(await authorize(undefined, { ...base, redirect_uri: otherDomain }), 401, 'USER_AUTHENTICATION_REQUIRED');
  });

  it('refuses a malformed challenge, method or state with SCHEMA_ERROR', async () => {
    const user = await signUp('cross-domain-schema@example.com');
    const { challenge } = pkce();
    for (const body of [
      { redirect_uri: otherDomain, state: 's', code_challenge: 'short', code_challenge_method: 'S256' },
      { redirect_uri: otherDomain, state: 's', code_challenge: challenge, code_challenge_method: 'plain' },
      { redirect_uri: otherDomain, state: '', code_challenge: challenge, code_challenge_method: 'S256' },
      { redirect_uri: otherDomain, state: 'x'.repeat(513), code_challenge: challenge, code_challenge_method: 'S256' },
      { redirect_uri: 'not a url', state: 's', code_challenge: challenge, code_challenge_method: 'S256' },
    ]) {
      expectError(await authorize(user.access_token, body), 400, 'SCHEMA_ERROR');
    }
  });
});
