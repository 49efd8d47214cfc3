import { describe, expect, it } from 'vitest';
import { buildOAuthSignInUrl, codeChallenge } from './oauth-sign-in-url.ts';

describe('the OAuth sign-in URL', () => {
  it('derives the PKCE challenge as RFC 7636 appendix B does', async () => {
    expect(await codeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('carries the authorize query of docs/protocol/endpoints.md §7, with a random state and verifier by default', async () => {
    const client = { baseUrl: 'https://auth.example.com/', projectId: 'proj-1' };
    const built = await buildOAuthSignInUrl(client, 'github', { redirectUrl: 'https://app.example.com/handler/oauth-callback' });
    const url = new URL(built.url);
    expect(`${url.origin}${url.pathname}`).toBe('https://auth.example.com/api/v1/auth/oauth/authorize/github');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'proj-1',
      client_secret: '__stack_public_client__',
      redirect_uri: 'https://app.example.com/handler/oauth-callback',
      scope: 'legacy',
      state: built.state,
      grant_type: 'authorization_code',
      code_challenge: await codeChallenge(built.codeVerifier),
      code_challenge_method: 'S256',
      response_type: 'code',
      type: 'authenticate',
    });
    expect(built.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const other = await buildOAuthSignInUrl(client, 'github', { redirectUrl: 'https://app.example.com/cb' });
    expect(other.state).not.toBe(built.state);
    expect(other.codeVerifier).not.toBe(built.codeVerifier);
  });

  it('uses the given publishable key, state, verifier and optional parameters', async () => {
    const client = { baseUrl: 'https://auth.example.com', projectId: 'proj-1', publishableClientKey: 'pck_1' };
    const built = await buildOAuthSignInUrl(client, 'google', {
      redirectUrl: 'https://app.example.com/cb',
      errorRedirectUrl: 'https://app.example.com/error',
      afterCallbackRedirectUrl: '/welcome',
      providerScope: 'https://www.googleapis.com/auth/drive.readonly',
      state: 'my-state',
      codeVerifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
    });
    const query = new URL(built.url).searchParams;
    expect(built).toMatchObject({ state: 'my-state', codeVerifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk' });
    expect(query.get('client_secret')).toBe('pck_1');
    expect(query.get('code_challenge')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(query.get('error_redirect_url')).toBe('https://app.example.com/error');
    expect(query.get('after_callback_redirect_url')).toBe('/welcome');
    expect(query.get('provider_scope')).toBe('https://www.googleapis.com/auth/drive.readonly');
  });

  it('carries the bot challenge fields Stack sends on authorize (a token with its phase, or the widget being unavailable)', async () => {
    const client = { baseUrl: 'https://auth.example.com', projectId: 'proj-1' };
    const redirectUrl = 'https://app.example.com/cb';
    const queryOf = async (botChallenge: Parameters<typeof buildOAuthSignInUrl>[2]['botChallenge']) =>
      Object.fromEntries(
        [...new URL((await buildOAuthSignInUrl(client, 'google', { redirectUrl, botChallenge })).url).searchParams].filter(([name]) =>
          name.startsWith('bot_challenge_'),
        ),
      );
    expect(await queryOf({ token: 'tok-1' })).toEqual({ bot_challenge_token: 'tok-1', bot_challenge_phase: 'visible' });
    expect(await queryOf({ token: 'tok-2', phase: 'invisible' })).toEqual({
      bot_challenge_token: 'tok-2',
      bot_challenge_phase: 'invisible',
    });
    expect(await queryOf({ unavailable: true })).toEqual({ bot_challenge_unavailable: 'true' });
    expect(await queryOf({ token: '' })).toEqual({});
    expect(await queryOf(undefined)).toEqual({});
  });
});
