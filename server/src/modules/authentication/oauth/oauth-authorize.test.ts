import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { oauthFlowFixture } from '@gatehouse/testing/oauth-flow-fixture';
import { authorizeQuery, type FlowOptions, innerCookieOf, ownKeys, pkce } from '@gatehouse/testing/oauth-test-flow';
import { type TestProject, tokenSubject } from '@gatehouse/testing/test-context';

/** The two ends of the app's OAuth round trip and their catalogued refusals: authorize, and the token endpoint's code exchange. */
const { env, flows, newEmail, googleProfile, projectWith } = oauthFlowFixture();

describe('GET /auth/oauth/authorize/{provider_id}', () => {
  const query = (project: TestProject = env.project, options: FlowOptions = {}) => authorizeQuery(project, pkce().challenge, options);

  it('refuses unknown clients and keys', async () => {
    const unknown = query();
    unknown.set('client_id', randomUUID());
    expectError(await flows.authorize('google', unknown), 400, 'INVALID_OAUTH_CLIENT_ID_OR_SECRET');
    const wrongKey = query();
    wrongKey.set('client_secret', 'pck_wrong');
    expectError(await flows.authorize('google', wrongKey), 401, 'INVALID_PUBLISHABLE_CLIENT_KEY');
    const keyed = await projectWith({ 'project.requirePublishableClientKey': true });
    const keyless = query(keyed);
    keyless.set('client_secret', '__stack_public_client__');
    expectError(await flows.authorize('google', keyless), 401, 'PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT');
    const badScope = query();
    badScope.set('scope', 'openid');
    expectError(await flows.authorize('google', badScope), 400, 'INVALID_SCOPE');
  });

  it('refuses providers that are missing, off, or mistyped, and untrusted redirects', async () => {
    expectError(await flows.authorize('facebook', query()), 400, 'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED');
    expectError(await flows.authorize('gitlab', query()), 400, 'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED');
    const odd = await projectWith({
      'auth.oauth.providers': { weird: ownKeys('myspace'), shared: { type: 'discord', isShared: true, allowSignIn: true } },
    });
    expectError(await flows.authorize('weird', query(odd)), 400, 'INVALID_STANDARD_OAUTH_PROVIDER_ID', { provider_id: 'myspace' });
    expectError(await flows.authorize('shared', query(odd)), 400, 'INVALID_SHARED_OAUTH_PROVIDER_ID', { provider_id: 'discord' });
    const untrusted = query();
    untrusted.set('redirect_uri', 'https://evil.example.org/handler/oauth-callback');
    expectError(await flows.authorize('google', untrusted), 400, 'REDIRECT_URL_NOT_WHITELISTED');
    for (const [name, value] of [
      ['error_redirect_uri', 'https://evil.example.org/handler/error'],
      ['error_redirect_url', 'https://evil.example.org/handler/error'],
      ['after_callback_redirect_url', 'https://evil.example.org/after'],
      ['after_callback_redirect_url', '//evil.example.org/after'],
    ]) {
      const badTarget = query();
      badTarget.set(name as string, value as string);
      expectError(await flows.authorize('google', badTarget), 400, 'REDIRECT_URL_NOT_WHITELISTED');
    }
    const ownPath = query();
    ownPath.set('after_callback_redirect_url', '/dashboard?tab=1');
    expect((await flows.authorize('google', ownPath)).status).toBe(307);
    const missing = query();
    missing.delete('client_id');
    expectError(await flows.authorize('google', missing), 400, 'SCHEMA_ERROR');
    const extra = query();
    extra.set('some_sdk_parameter', 'ignored');
    expect((await flows.authorize('google', extra)).status).toBe(307);
  });

  it('uses shared keys only in development projects, and never with extra scopes', async () => {
    const sharedConfig = { 'auth.oauth.providers': { spotify: { type: 'spotify', isShared: true, allowSignIn: true } } };
    const production = await projectWith(sharedConfig);
    expectError(await flows.authorize('spotify', query(production)), 400, 'OAUTH_PROVIDER_KEYS_MISSING', {
      reason: 'shared_keys_outside_development',
      provider_id: 'spotify',
    });
    const development = await projectWith(sharedConfig, true);
    const started = await flows.authorize('spotify', query(development));
    expect(started.status).toBe(307);
    expect(new URL(String(started.headers.location)).searchParams.get('client_id')).toBe('sharedspotify');
    expectError(
      await flows.authorize('spotify', query(development, { providerScope: 'playlist-read-private' })),
      400,
      'OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS',
    );
  });

  it('refuses a provider without keys it can use: no shared keys on this server, no secret of its own', async () => {
    const project = await projectWith(
      {
        'auth.oauth.providers': {
          github: { type: 'github', isShared: true, allowSignIn: true },
          google: ownKeys('google', { clientSecret: undefined }),
        },
      },
      true,
    );
    expectError(await flows.authorize('github', query(project)), 400, 'OAUTH_PROVIDER_KEYS_MISSING', {
      reason: 'no_shared_keys_on_server',
      provider_id: 'github',
    });
    expectError(await flows.authorize('google', query(project)), 400, 'OAUTH_PROVIDER_KEYS_MISSING', {
      reason: 'no_client_credentials',
      provider_id: 'google',
    });
  });

  it('checks the token: unreadable, expired, of another project', async () => {
    expectError(await flows.authorize('google', query(env.project, { type: 'link', token: 'not-a-jwt' })), 401, 'UNPARSABLE_ACCESS_TOKEN');
    const { accessTokens } = env.context.services;
    const expired = await accessTokens.sign(tokenSubject(env.project.project.id), { now: Date.now() - 3_600_000 });
    expectError(await flows.authorize('google', query(env.project, { type: 'link', token: expired })), 401, 'ACCESS_TOKEN_EXPIRED');
    const other = await env.context.createProject();
    const foreign = await accessTokens.sign(tokenSubject(other.project.id));
    expectError(
      await flows.authorize('google', query(env.project, { type: 'link', token: foreign })),
      401,
      'INVALID_PROJECT_FOR_ACCESS_TOKEN',
    );
  });
});

describe('POST /auth/oauth/token (authorization_code grant)', () => {
  it('refuses a wrong verifier, a foreign project, a different redirect URI (plain 400) and missing fields', async () => {
    googleProfile(newEmail('token'));
    const first = await flows.toCode();
    expectError(await flows.exchange(env.project, first.code, pkce().verifier), 400, 'INVALID_AUTHORIZATION_CODE');
    const second = await flows.toCode();
    const other = await env.context.createProject();
    expectError(await flows.exchange(other, second.code, second.verifier), 400, 'INVALID_AUTHORIZATION_CODE');
    expectPlain(await flows.exchange(env.project, second.code, second.verifier, 'https://app.example.com/handler/other'), 400);
    const missing = await env.context.request({
      method: 'POST',
      url: '/api/v1/auth/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'authorization_code', code: 'x', client_id: env.project.project.id }).toString(),
    });
    expectError(missing, 400, 'SCHEMA_ERROR');
    expect(innerCookieOf(missing)).toBeUndefined();
  });
});
