import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { withTestContext } from '@gatehouse/testing/test-context';
import type { UserRecord } from '../../../tenancy/user-record.ts';
import { ownKeys } from '@gatehouse/testing/oauth-test-flow';

/**
 * A user's linked provider accounts (docs/protocol/endpoints.md §18): server create, client and server reads,
 * updates and deletes; one sign-in account per provider type and user, one user per sign-in account.
 */
const env = withTestContext({
  projectConfig: { 'auth.oauth.providers': { google: ownKeys('google'), work: ownKeys('google'), github: ownKeys('github') } },
});

let alice: UserRecord;
let bob: UserRecord;
let aliceToken: string;
beforeAll(async () => {
  const { users, signIn } = env.context.services;
  alice = await users.create(env.project.project, { display_name: 'Alice' }, 'server');
  bob = await users.create(env.project.project, { display_name: 'Bob' }, 'server');
  aliceToken = (await signIn.signIn(env.project.project, alice)).access_token;
});

const asAlice = () => ({ ...env.project.headers.client, 'x-stack-access-token': aliceToken });
const server = () => env.project.headers.server;
const create = (body: Record<string, unknown>, headers = server()) =>
  env.context.request({ method: 'POST', url: '/api/v1/oauth-providers', headers, payload: body });
const link = (userId: string, providerConfigId: string, allowSignIn = true, accountId = randomUUID()) =>
  create({
    user_id: userId,
    provider_config_id: providerConfigId,
    account_id: accountId,
    email: null,
    allow_sign_in: allowSignIn,
    allow_connected_accounts: true,
  });
const one = (method: 'GET' | 'PATCH' | 'DELETE', userId: string, id: string, headers: Record<string, string>, payload?: object) =>
  env.context.request({ method, url: `/api/v1/oauth-providers/${userId}/${id}`, headers, payload });

describe('POST /oauth-providers', () => {
  it('links an account (server view with account_id)', async () => {
    const accountId = randomUUID();
    const created = await create({
      user_id: alice.id,
      provider_config_id: 'google',
      account_id: accountId,
      email: 'alice@gmail.example.com',
      allow_sign_in: true,
      allow_connected_accounts: false,
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      user_id: alice.id,
      provider_config_id: 'google',
      type: 'google',
      account_id: accountId,
      email: 'alice@gmail.example.com',
      allow_sign_in: true,
      allow_connected_accounts: false,
    });
  });

  it('keeps one sign-in account per provider type (plain 400) and one user per sign-in account', async () => {
    expectPlain(await link(alice.id, 'work'), 400);
    const second = await link(alice.id, 'work', false);
    expect(second.status).toBe(201);
    const taken = randomUUID();
    expect((await link(bob.id, 'github', true, taken)).status).toBe(201);
    expectError(await link(alice.id, 'github', true, taken), 400, 'OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN');
  });

  it('refuses unknown users and providers (plain 404), and me without a user', async () => {
    expectError(await link(randomUUID(), 'google'), 404, 'USER_NOT_FOUND');
    expectPlain(await link(alice.id, 'facebook'), 404);
    expectError(await link('me', 'google'), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
  });
});

describe('GET /oauth-providers', () => {
  it("lists the client's own accounts without account ids, and any user's for the server", async () => {
    const own = await env.context.request({ url: '/api/v1/oauth-providers', headers: asAlice() });
    expect(own.body.items.length).toBeGreaterThan(0);
    expect(own.body.items.every((item: { user_id: string; account_id?: string }) => item.user_id === alice.id && !item.account_id)).toBe(
      true,
    );
    const bobs = await env.context.request({ url: `/api/v1/oauth-providers?user_id=${bob.id}`, headers: server() });
    expect(bobs.body.items.map((item: { provider_config_id: string }) => item.provider_config_id)).toEqual(['github']);
    const all = await env.context.request({ url: '/api/v1/oauth-providers', headers: server() });
    expect(all.body.items.length).toBeGreaterThan(own.body.items.length);
  });

  it('refuses another user on client access (plain 403) and a client without a user', async () => {
    expectPlain(await env.context.request({ url: `/api/v1/oauth-providers?user_id=${bob.id}`, headers: asAlice() }), 403);
    expectError(
      await env.context.request({ url: '/api/v1/oauth-providers', headers: env.project.headers.client }),
      400,
      'CANNOT_GET_OWN_USER_WITHOUT_USER',
    );
  });
});

describe('/oauth-providers/{user_id}/{provider_id}', () => {
  it('reads, changes and unlinks an account', async () => {
    const created = (await link(alice.id, 'github', false)).body;
    const read = await one('GET', 'me', created.id, asAlice());
    expect(read.body).toMatchObject({ id: created.id, type: 'github', allow_sign_in: false });
    expect(read.body.account_id).toBeUndefined();
    const changed = await one('PATCH', 'me', created.id, asAlice(), { allow_connected_accounts: false });
    expect(changed.body).toMatchObject({ allow_connected_accounts: false });
    const renamed = await one('PATCH', alice.id, created.id, server(), { email: 'octo@example.com', account_id: 'renamed' });
    expect(renamed.body).toMatchObject({ email: 'octo@example.com', account_id: 'renamed' });
    expectError(await one('PATCH', 'me', created.id, asAlice(), { account_id: 'x' }), 400, 'SCHEMA_ERROR');
    expect((await one('DELETE', 'me', created.id, asAlice())).body).toEqual({ success: true });
    expectPlain(await one('GET', 'me', created.id, asAlice()), 404);
    expectPlain(await one('PATCH', 'me', created.id, asAlice(), { allow_sign_in: false }), 404);
    expectPlain(await one('DELETE', 'me', created.id, asAlice()), 404);
  });

  it("shows in the user's views as it is linked, changed and unlinked", async () => {
    const carol = await env.context.services.users.create(env.project.project, { display_name: 'Carol' }, 'server');
    const viewOf = async () => (await env.context.request({ url: `/api/v1/users/${carol.id}`, headers: server() })).body.oauth_providers;
    expect(await viewOf()).toEqual([]);
    const [workAccount, githubAccount] = [randomUUID(), randomUUID()];
    const created = (await link(carol.id, 'work', true, workAccount)).body;
    const connectOnly = (await link(carol.id, 'github', false, githubAccount)).body;
    expect(await viewOf()).toEqual([
      { id: 'work', account_id: workAccount, email: null },
      { id: 'github', account_id: githubAccount, email: null },
    ]);
    await one('PATCH', carol.id, created.id, server(), { email: 'carol@work.example.com', account_id: 'carol-at-work' });
    await one('DELETE', carol.id, connectOnly.id, server());
    expect(await viewOf()).toEqual([{ id: 'work', account_id: 'carol-at-work', email: 'carol@work.example.com' }]);
  });

  it('applies the sign-in rules to updates', async () => {
    const spare = (await link(alice.id, 'work', false)).body;
    expectPlain(await one('PATCH', alice.id, spare.id, server(), { allow_sign_in: true }), 400);
    const taken = randomUUID();
    await link(bob.id, 'work', false, taken);
    const bobsGithub = (await env.context.request({ url: `/api/v1/oauth-providers?user_id=${bob.id}`, headers: server() })).body.items[0];
    const mine = (await link(alice.id, 'github', false)).body;
    expectError(
      await one('PATCH', alice.id, mine.id, server(), { account_id: bobsGithub.account_id, allow_sign_in: true }),
      400,
      'OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN',
    );
  });

  it('refuses me without a user and other users on client access', async () => {
    const id = randomUUID();
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      expectError(await one(method, 'me', id, server(), method === 'PATCH' ? {} : undefined), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
      expectPlain(await one(method, bob.id, id, asAlice(), method === 'PATCH' ? {} : undefined), 403);
    }
  });
});
