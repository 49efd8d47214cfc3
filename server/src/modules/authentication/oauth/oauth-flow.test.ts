import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '../../../testing/expect-response.ts';
import { type MockProvider, startMockProvider } from '../../../testing/mock-oauth-provider.ts';
import { type TestProject, tokenSubject, withTestContext } from '../../../testing/test-context.ts';
import type { OAuthSettings } from './oauth-settings.ts';
import {
  appCallback,
  authorizeQuery,
  type FlowOptions,
  innerCookieOf,
  oauthFlows,
  ownKeys,
  pkce,
  trustedDomains,
} from '../../../testing/oauth-test-flow.ts';

/**
 * OAuth sign-in against a real OpenID provider on 127.0.0.1 (docs/protocol/endpoints.md §7): authorize, the
 * provider's approval, the callback, the code exchange; linking, merge strategies, and every
 * catalogued failure of the three endpoints.
 */
let mock: MockProvider;
const settings: OAuthSettings = { endpoints: {}, sharedKeys: {} };
beforeAll(async () => {
  mock = await startMockProvider();
  settings.endpoints = { google: mock.endpoints(), github: mock.endpoints(true), spotify: mock.endpoints(), gitlab: mock.endpoints() };
  settings.sharedKeys = { spotify: { clientId: 'sharedspotify', clientSecret: 'sharedsecret' } };
});
afterAll(() => mock.stop());

const providers = { google: ownKeys('google'), github: ownKeys('github'), gitlab: ownKeys('gitlab', { allowSignIn: false }) };
const baseConfig = { 'auth.oauth.providers': providers, 'domains.trustedDomains': trustedDomains, 'auth.allowAnonymousSignUp': true };
const env = withTestContext({ projectConfig: baseConfig, oauth: settings });
const flows = oauthFlows(env);

const newEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;
const googleProfile = (email: string | null, verified = true, sub = randomUUID()) => {
  mock.state.profile = { sub, email, email_verified: verified, name: 'Ada Lovelace', picture: 'https://example.com/ada.png' };
  return sub;
};
/** The user of a token endpoint answer (it carries no user_id). */
const subOf = (answer: { body: { access_token: string } }) => decodeJwt(answer.body.access_token).sub as string;
const me = (accessToken: string, project: TestProject = env.project) =>
  env.context.request({ url: '/api/v1/users/me', headers: { ...project.headers.client, 'x-stack-access-token': accessToken } });
const projectWith = (config: Record<string, unknown>, development = false) =>
  env.context.createProject({ ...baseConfig, ...config }).then(async (project) => {
    if (development) {
      await env.context.database.db
        .updateTable('project')
        .set({ is_development_environment: true })
        .where('id', '=', project.project.id)
        .execute();
      // Writing the config drops the cached project row.
      await env.context.services.projects.replaceConfigOverride(project.project.id, { ...baseConfig, ...config });
    }
    return project;
  });

describe('the whole flow against an OpenID provider', () => {
  it('signs a new user up: authorize → provider → callback → code → tokens', async () => {
    const email = newEmail('new');
    googleProfile(email);
    const { redirect, code, verifier, location, cookie } = await flows.toCode({ afterCallbackRedirectUrl: '/welcome' });
    const providerUrl = new URL(location);
    expect(providerUrl.origin).toBe(mock.issuer);
    expect(providerUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(providerUrl.searchParams.get('redirect_uri')).toBe('http://localhost:8102/api/v1/auth/oauth/callback/google');
    expect(providerUrl.searchParams.get('scope')).toBe('openid email profile');
    expect(cookie).toMatch(/^stack-oauth-inner-[^=]+=.{43,}/);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(appCallback);
    expect(redirect.searchParams.get('state')).toBe('app-state');
    const tokens = await flows.exchange(env.project, code, verifier);
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', scope: 'legacy', is_new_user: true, newUser: true });
    expect(tokens.body).toMatchObject({ after_callback_redirect_url: '/welcome', afterCallbackRedirectUrl: '/welcome' });
    expect(decodeJwt(tokens.body.access_token)).toMatchObject({ email, email_verified: true, name: 'Ada Lovelace' });
    const user = await me(tokens.body.access_token);
    expect(user.body).toMatchObject({
      primary_email: email,
      primary_email_verified: true,
      profile_image_url: 'https://example.com/ada.png',
    });
    // The code is used once.
    expectError(await flows.exchange(env.project, code, verifier), 400, 'INVALID_AUTHORIZATION_CODE');
  });

  it('signs the same provider account in again, and answers JSON mode with the location and no cookie', async () => {
    const sub = googleProfile(newEmail('again'));
    const first = await flows.signIn();
    googleProfile(null, false, sub);
    const started = await flows.toProvider({ json: true });
    expect(started.cookie).toBeUndefined();
    const answer = await flows.callback(started.callback, undefined);
    expect(answer.status).toBe(303);
    const code = new URL(String(answer.headers.location)).searchParams.get('code') as string;
    const second = await flows.exchange(env.project, code, started.verifier);
    expect(second.body).toMatchObject({ is_new_user: false, after_callback_redirect_url: null });
    expect(decodeJwt(second.body.access_token).sub).toBe(decodeJwt(first.body.access_token).sub);
  });

  it('maps a non-OpenID provider (GitHub) profile, its verified primary email from the email list', async () => {
    const email = newEmail('octo');
    mock.state.profile = { id: 4242, login: 'octocat', name: null, email: null, avatar_url: 'https://example.com/octo.png' };
    mock.state.emails = [
      { email: 'old@example.com', primary: false, verified: true },
      { email, primary: true, verified: true },
    ];
    const tokens = await flows.signIn({ provider: 'github' });
    expect(tokens.status, tokens.text).toBe(200);
    const user = await me(tokens.body.access_token);
    expect(user.body).toMatchObject({ display_name: 'octocat', primary_email: email, primary_email_verified: true });
  });

  it('upgrades the anonymous user of the token in place', async () => {
    const anonymous = (
      await env.context.request({ method: 'POST', url: '/api/v1/auth/anonymous/sign-up', headers: env.project.headers.client, payload: {} })
    ).body;
    googleProfile(newEmail('upgrade'));
    const tokens = await flows.signIn({ token: anonymous.access_token });
    expect(tokens.body.is_new_user).toBe(true);
    expect(decodeJwt(tokens.body.access_token)).toMatchObject({ sub: anonymous.user_id, is_anonymous: false });
  });

  it('ends in the MFA check: a user with TOTP gets MULTI_FACTOR_AUTHENTICATION_REQUIRED from the token endpoint', async () => {
    const email = newEmail('mfa');
    googleProfile(email);
    const first = await flows.signIn();
    await env.context.services.users.update(env.project.project, subOf(first), {
      totp_secret_base64: Buffer.from('12345678901234567890').toString('base64'),
    });
    const again = await flows.signIn();
    expectError(again, 400, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED');
    expect(again.body.details.attempt_code).toMatch(/^[a-z2-7]{45}$/);
  });
});

describe('linking a provider account to a signed-in user', () => {
  it('links a second provider, which then signs the same user in', async () => {
    googleProfile(newEmail('linker'));
    const user = (await flows.signIn()).body;
    mock.state.profile = { id: 777001, login: 'linked-octo', email: null };
    mock.state.emails = [];
    const linked = await flows.signIn({ provider: 'github', type: 'link', token: user.access_token });
    expect(linked.body.is_new_user).toBe(false);
    expect(subOf(linked)).toBe(subOf({ body: user }));
    const providers = await env.context.request({
      url: '/api/v1/oauth-providers?user_id=me',
      headers: { ...env.project.headers.client, 'x-stack-access-token': user.access_token },
    });
    expect(providers.body.items.map((item: { type: string }) => item.type).sort()).toEqual(['github', 'google']);
    expect(providers.body.items.every((item: { allow_sign_in: boolean }) => item.allow_sign_in)).toBe(true);
    const viaGithub = await flows.signIn({ provider: 'github' });
    expect(subOf(viaGithub)).toBe(subOf({ body: user }));
  });

  it('lists the linked accounts in every user view (me, server read, server list), and drops an unlinked one', async () => {
    const email = newEmail('views');
    const googleSub = googleProfile(email);
    const user = (await flows.signIn()).body;
    const userId = subOf({ body: user });
    const google = { id: 'google', account_id: googleSub, email };
    expect((await me(user.access_token)).body.oauth_providers).toEqual([google]);
    mock.state.profile = { id: 777002, login: 'viewed-octo', email: null };
    mock.state.emails = [];
    await flows.signIn({ provider: 'github', type: 'link', token: user.access_token });
    const github = { id: 'github', account_id: '777002', email: null };

    const asUser = { ...env.project.headers.client, 'x-stack-access-token': user.access_token };
    const server = env.project.headers.server;
    const views = async () => [
      (await me(user.access_token)).body.oauth_providers,
      (await env.context.request({ url: '/api/v1/users/me', headers: { ...server, 'x-stack-access-token': user.access_token } })).body
        .oauth_providers,
      (await env.context.request({ url: `/api/v1/users/${userId}`, headers: server })).body.oauth_providers,
      (await env.context.request({ url: `/api/v1/users?query=${encodeURIComponent(email)}&limit=5`, headers: server })).body.items.find(
        (item: { id: string }) => item.id === userId,
      ).oauth_providers,
    ];
    for (const view of await views()) expect(view).toEqual([google, github]);

    const links = await env.context.request({ url: '/api/v1/oauth-providers?user_id=me', headers: asUser });
    const githubLink = links.body.items.find((item: { type: string }) => item.type === 'github');
    const unlinked = await env.context.request({ method: 'DELETE', url: `/api/v1/oauth-providers/me/${githubLink.id}`, headers: asUser });
    expect(unlinked.body).toEqual({ success: true });
    for (const view of await views()) expect(view).toEqual([google]);
  });

  it('refuses a provider account that signs in another user, and link without a token (plain 400)', async () => {
    const sub = googleProfile(newEmail('owner'));
    await flows.signIn();
    googleProfile(newEmail('other'));
    const other = (await flows.signIn()).body;
    googleProfile(null, false, sub);
    const started = await flows.toProvider({ type: 'link', token: other.access_token });
    expectError(await flows.callback(started.callback, started.cookie), 409, 'OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER');
    const { challenge } = pkce();
    expectPlain(await flows.authorize('google', authorizeQuery(env.project, challenge, { type: 'link' })), 400);
  });
});

describe('account merge strategies (an email that already signs someone in)', () => {
  const existing = async (project: TestProject, verified: boolean) => {
    const email = newEmail('merge');
    const user = await env.context.services.users.create(
      project.project,
      { primary_email: email, primary_email_verified: verified, primary_email_auth_enabled: true },
      'password',
    );
    return { email, user };
  };

  it('link_method (default): links when both sides verified the email, else CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE', async () => {
    const { email, user } = await existing(env.project, true);
    googleProfile(email, true);
    const linked = await flows.signIn();
    expect(linked.body.is_new_user).toBe(false);
    expect(subOf(linked)).toBe(user.id);
    const unverified = await existing(env.project, false);
    googleProfile(unverified.email, true);
    const started = await flows.toProvider();
    const refused = await flows.callback(started.callback, started.cookie);
    expectError(refused, 409, 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE', {
      type: 'email',
      contact_channel_value: unverified.email,
      would_work_if_email_was_verified: true,
    });
  });

  it('raise_error refuses; allow_duplicates signs up a second user whose email does not sign in', async () => {
    const strict = await projectWith({ 'auth.oauth.accountMergeStrategy': 'raise_error' });
    const { email } = await existing(strict, true);
    googleProfile(email, true);
    const started = await flows.toProvider({ project: strict });
    expectError(await flows.callback(started.callback, started.cookie), 409, 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE', {
      type: 'email',
      contact_channel_value: email,
      would_work_if_email_was_verified: false,
    });
    const lenient = await projectWith({ 'auth.oauth.accountMergeStrategy': 'allow_duplicates' });
    const duplicate = await existing(lenient, true);
    googleProfile(duplicate.email, true);
    const tokens = await flows.signIn({ project: lenient });
    expect(tokens.body.is_new_user).toBe(true);
    expect(subOf(tokens)).not.toBe(duplicate.user.id);
    const user = await me(tokens.body.access_token, lenient);
    expect(user.body).toMatchObject({ primary_email: duplicate.email, auth_with_email: false });
  });
});

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
    expectPlain(await flows.authorize('spotify', query(production)), 400);
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

describe.each(['GET', 'POST'] as const)('%s /auth/oauth/callback/{provider_id}', (method) => {
  const callback = (url: URL, cookie: string | undefined) =>
    method === 'GET'
      ? flows.callback(url, cookie)
      : env.context.request({
          method: 'POST',
          url: url.pathname,
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
          payload: url.searchParams.toString(),
        });

  it('redirects to the app with a code', async () => {
    googleProfile(newEmail(`callback-${method}`));
    const started = await flows.toProvider();
    const answer = await callback(started.callback, started.cookie);
    expect(answer.status).toBe(303);
    expect(new URL(String(answer.headers.location)).searchParams.get('code')).toMatch(/^[a-z2-7]{45}$/);
  });

  it('answers plain 400 without the flow cookie or for an unknown state, and SCHEMA_ERROR for a bad parameter', async () => {
    const started = await flows.toProvider();
    expectPlain(await callback(started.callback, undefined), 400);
    const unknown = new URL(started.callback);
    unknown.searchParams.set('state', 'unknown-state');
    expectPlain(await callback(unknown, started.cookie), 400);
    const long = new URL(started.callback);
    long.searchParams.set('state', 's'.repeat(513));
    expectError(await callback(long, started.cookie), 400, 'SCHEMA_ERROR');
  });

  it('answers the provider denial, or redirects it to the flow error URL', async () => {
    const started = await flows.toProvider();
    const denied = new URL(started.callback);
    denied.searchParams.delete('code');
    denied.searchParams.set('error', 'access_denied');
    expectError(await callback(denied, started.cookie), 400, 'OAUTH_PROVIDER_ACCESS_DENIED');
    const withErrorUrl = await flows.toProvider({ errorRedirectUri: 'https://app.example.com/handler/error' });
    const redirected = new URL(withErrorUrl.callback);
    redirected.searchParams.delete('code');
    redirected.searchParams.set('error', 'access_denied');
    const answer = await callback(redirected, withErrorUrl.cookie);
    expect(answer.status).toBe(303);
    const location = new URL(String(answer.headers.location));
    expect(location.searchParams.get('errorCode')).toBe('OAUTH_PROVIDER_ACCESS_DENIED');
    expect(location.searchParams.get('error')).toBe('access_denied');
  });

  it('answers OUTER_OAUTH_TIMEOUT after the outer flow expired', async () => {
    const started = await flows.toProvider();
    const state = started.callback.searchParams.get('state') as string;
    await env.context.database.db
      .updateTable('oauth_flow')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('inner_state', '=', state)
      .execute();
    const timedOut = await callback(started.callback, started.cookie);
    expectError(timedOut, 408, 'OUTER_OAUTH_TIMEOUT');
    expect(timedOut.body.error).toBe('The OAuth flow has timed out. Please sign in again.');
  });

  it('answers OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE when the provider is down', async () => {
    const started = await flows.toProvider();
    mock.state.tokenHook = (answer) => {
      answer.statusCode = 503;
      answer.body = { error: 'temporarily_unavailable' };
    };
    try {
      expectError(await callback(started.callback, started.cookie), 503, 'OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE');
    } finally {
      mock.state.tokenHook = undefined;
    }
  });

  it('re-checks the project between authorize and callback: provider off, sign-up off, redirect no longer trusted', async () => {
    const project = await projectWith({});
    const change = (config: Record<string, unknown>) =>
      env.context.services.projects.replaceConfigOverride(project.project.id, { ...baseConfig, ...config });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ 'auth.oauth.providers': { google: ownKeys('google', { allowSignIn: false }) } }, 'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED'],
      [{ 'auth.allowSignUp': false }, 'SIGN_UP_NOT_ENABLED'],
      [{ 'domains.trustedDomains': {} }, 'REDIRECT_URL_NOT_WHITELISTED'],
    ];
    for (const [config, code] of cases) {
      await change({});
      googleProfile(newEmail('recheck'));
      const started = await flows.toProvider({ project });
      await change(config);
      expectError(await callback(started.callback, started.cookie), 400, code);
    }
  });

  it('answers OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER and CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE', async () => {
    const sub = googleProfile(newEmail('taken'));
    await flows.signIn();
    googleProfile(newEmail('linking'));
    const other = (await flows.signIn()).body;
    googleProfile(null, false, sub);
    const linking = await flows.toProvider({ type: 'link', token: other.access_token });
    expectError(await callback(linking.callback, linking.cookie), 409, 'OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER');
    const email = newEmail('channel');
    await env.context.services.users.create(env.project.project, { primary_email: email, primary_email_auth_enabled: true }, 'password');
    googleProfile(email, true);
    const merging = await flows.toProvider();
    expectError(await callback(merging.callback, merging.cookie), 409, 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE');
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
