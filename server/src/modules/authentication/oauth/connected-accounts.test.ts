import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { type MockProvider, startMockProvider } from '@gatehouse/testing/mock-oauth-provider';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import type { OAuthSettings } from './oauth-settings.ts';
import { oauthFlows, ownKeys, trustedDomains } from '@gatehouse/testing/oauth-test-flow';

/**
 * Connected accounts (docs/protocol/endpoints.md §17): provider access tokens kept from the OAuth flow, handed
 * out when their scopes cover the request, refreshed at the provider (a real OpenID server on
 * 127.0.0.1) when they expired; and the errors of the three access-token paths.
 */
let mock: MockProvider;
const settings: OAuthSettings = { endpoints: {}, sharedKeys: {} };
beforeAll(async () => {
  mock = await startMockProvider();
  settings.endpoints = { google: mock.endpoints() };
});
afterAll(() => mock.stop());

const config = {
  'auth.oauth.providers': { google: ownKeys('google'), spotify: { type: 'spotify', isShared: true, allowSignIn: true } },
  'domains.trustedDomains': trustedDomains,
};
const env = withTestContext({ projectConfig: config, oauth: settings });
const flows = oauthFlows(env);

/** A user who signed in with Google asking for an extra scope: its id, access token and provider account id. */
let user: { id: string; accessToken: string; accountId: string };
beforeAll(async () => {
  const accountId = randomUUID();
  mock.state.profile = { sub: accountId, email: `connected-${accountId.slice(0, 8)}@example.com`, email_verified: true };
  const tokens = await flows.signIn({ providerScope: 'https://www.googleapis.com/auth/drive.readonly' });
  user = { id: decodeJwt(tokens.body.access_token).sub as string, accessToken: tokens.body.access_token, accountId };
});

const asUser = () => ({ ...env.project.headers.client, 'x-stack-access-token': user.accessToken });
type Path = { name: string; url: (userId: string, provider: string) => string; own: boolean };
const paths: Path[] = [
  {
    name: 'POST /connected-accounts/{user_id}/{provider_id}/access-token',
    url: (u, p) => `/api/v1/connected-accounts/${u}/${p}/access-token`,
    own: false,
  },
  {
    name: 'POST /connected-accounts/{user_id}/{provider_id}/{provider_account_id}/access-token',
    url: (u, p) => `/api/v1/connected-accounts/${u}/${p}/${p === 'google' ? user.accountId : 'any-account'}/access-token`,
    own: false,
  },
  {
    name: 'POST /auth/oauth/connected-accounts/{provider_id}/access-token',
    url: (_u, p) => `/api/v1/auth/oauth/connected-accounts/${p}/access-token`,
    own: true,
  },
];
const request = (path: Path, userId: string, provider: string, headers: Record<string, string>, scope?: string) =>
  env.context.request({ method: 'POST', url: path.url(userId, provider), headers, payload: scope === undefined ? {} : { scope } });
const expireAccessTokens = () =>
  env.context.database.db
    .updateTable('oauth_provider_token')
    .set({ expires_at: new Date(Date.now() - 1000) })
    .where('kind', '=', 'access')
    .where('oauth_account_id', 'in', (eb) => eb.selectFrom('oauth_account').select('id').where('user_id', '=', user.id))
    .execute();
const validRefreshTokens = () =>
  env.context.database.db
    .selectFrom('oauth_provider_token as t')
    .innerJoin('oauth_account as a', 'a.id', 't.oauth_account_id')
    .select(['t.id', 't.sealed_value'])
    .where('a.user_id', '=', user.id)
    .where('t.kind', '=', 'refresh')
    .where('t.is_valid', '=', true)
    .execute();

describe('GET /connected-accounts/{user_id}', () => {
  it("lists the user's connected accounts", async () => {
    const list = await env.context.request({ url: '/api/v1/connected-accounts/me', headers: asUser() });
    expect(list.body).toEqual({
      items: [{ user_id: user.id, provider: 'google', provider_account_id: user.accountId }],
      is_paginated: false,
    });
  });

  it('refuses me without a user, other users on client access (plain 403), and unknown users', async () => {
    expectError(
      await env.context.request({ url: '/api/v1/connected-accounts/me', headers: env.project.headers.client }),
      400,
      'CANNOT_GET_OWN_USER_WITHOUT_USER',
    );
    expectPlain(await env.context.request({ url: `/api/v1/connected-accounts/${randomUUID()}`, headers: asUser() }), 403);
    expectError(
      await env.context.request({ url: `/api/v1/connected-accounts/${randomUUID()}`, headers: env.project.headers.server }),
      404,
      'USER_NOT_FOUND',
    );
  });
});

describe.each(paths)('$name', (path) => {
  const headers = () => (path.own ? asUser() : env.project.headers.server);
  const userId = () => (path.own ? 'me' : user.id);

  it('hands out the stored token when its scopes cover the request', async () => {
    const answer = await request(path, userId(), 'google', headers(), 'openid https://www.googleapis.com/auth/drive.readonly');
    expect(answer.status, answer.text).toBe(201);
    expect(decodeJwt(answer.body.access_token).iss).toBe(mock.issuer);
  });

  it('refreshes an expired token at the provider, keeping the rotated refresh token only', async () => {
    const before = await validRefreshTokens();
    await expireAccessTokens();
    const requests = mock.state.tokenRequests.length;
    const answer = await request(path, userId(), 'google', headers());
    expect(answer.status, answer.text).toBe(201);
    expect(mock.state.tokenRequests.slice(requests).map((body) => body.grant_type)).toEqual(['refresh_token']);
    const after = await validRefreshTokens();
    expect(after).toHaveLength(1);
    expect(after[0]?.id).not.toBe(before[0]?.id);
    // The refreshed token is stored: the next call needs no provider round trip.
    await request(path, userId(), 'google', headers());
    expect(mock.state.tokenRequests.length).toBe(requests + 1);
  });

  it('answers OAUTH_ACCESS_TOKEN_NOT_AVAILABLE when the provider refuses the refresh, and does not try it again', async () => {
    await expireAccessTokens();
    mock.state.tokenHook = (answer) => {
      answer.statusCode = 400;
      answer.body = { error: 'invalid_grant' };
    };
    try {
      const refused = await request(path, userId(), 'google', headers());
      expectError(refused, 400, 'OAUTH_ACCESS_TOKEN_NOT_AVAILABLE');
      expect(refused.body.details.provider).toBe('google');
    } finally {
      mock.state.tokenHook = undefined;
    }
    expect(await validRefreshTokens()).toHaveLength(0);
    expectError(await request(path, userId(), 'google', headers()), 400, 'OAUTH_ACCESS_TOKEN_NOT_AVAILABLE');
    // Connect again (a new sign-in stores fresh tokens).
    mock.state.profile = { sub: user.accountId, email: null };
    await flows.signIn({ providerScope: 'https://www.googleapis.com/auth/drive.readonly' });
  });

  it('answers OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE for scopes never granted', async () => {
    expectError(
      await request(path, userId(), 'google', headers(), 'https://mail.google.com/'),
      400,
      'OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE',
    );
  });

  it('refuses providers that are missing, on shared keys, or not connected to the user', async () => {
    expectError(await request(path, userId(), 'facebook', headers()), 400, 'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED');
    expectError(await request(path, userId(), 'spotify', headers()), 400, 'OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS');
    const stranger = await env.context.services.users.create(env.project.project, {}, 'server');
    const strangerToken = (await env.context.services.signIn.signIn(env.project.project, stranger)).access_token;
    const strangerHeaders = path.own
      ? { ...env.project.headers.client, 'x-stack-access-token': strangerToken }
      : env.project.headers.server;
    expectError(
      await request(path, path.own ? 'me' : stranger.id, 'google', strangerHeaders),
      400,
      'OAUTH_CONNECTION_NOT_CONNECTED_TO_USER',
    );
  });

  it.runIf(!path.own)('refuses me without a user, and unknown users', async () => {
    expectError(await request(path, 'me', 'google', env.project.headers.server), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    expectError(await request(path, randomUUID(), 'google', env.project.headers.server), 404, 'USER_NOT_FOUND');
  });

  it.runIf(path.own)('needs a signed-in user', async () => {
    expectError(await request(path, 'me', 'google', env.project.headers.client), 401, 'USER_AUTHENTICATION_REQUIRED');
  });
});

describe('a project without the provider', () => {
  let bare: TestProject;
  beforeAll(async () => {
    bare = await env.context.createProject();
  });
  it('has no connected accounts', async () => {
    const someone = await env.context.services.users.create(bare.project, {}, 'server');
    const list = await env.context.request({ url: `/api/v1/connected-accounts/${someone.id}`, headers: bare.headers.server });
    expect(list.body.items).toEqual([]);
  });
});
