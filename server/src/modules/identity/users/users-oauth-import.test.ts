import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { type MockProvider, startMockProvider } from '@gatehouse/testing/mock-oauth-provider';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import type { OAuthSettings } from '../../authentication/oauth/oauth-settings.ts';
import { oauthFlows, ownKeys, trustedDomains } from '@gatehouse/testing/oauth-test-flow';

/**
 * `POST /users` with `oauth_providers` (docs/protocol/entities.md ServerUserCreate): importing a user with its
 * linked provider accounts, which then sign it in; the rules of `POST /oauth-providers`; and a
 * refused link creating nothing at all.
 */
let mock: MockProvider;
const settings: OAuthSettings = { endpoints: {}, sharedKeys: {} };
beforeAll(async () => {
  mock = await startMockProvider();
  settings.endpoints = { google: mock.endpoints(), github: mock.endpoints(true) };
});
afterAll(() => mock.stop());

const baseConfig = {
  'auth.oauth.providers': { google: ownKeys('google'), work: ownKeys('google'), github: ownKeys('github') },
  'domains.trustedDomains': trustedDomains,
};
const env = withTestContext({ projectConfig: baseConfig, oauth: settings });
const flows = oauthFlows(env);

const newEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;
const createUser = (payload: Record<string, unknown>, project: TestProject = env.project) =>
  env.context.request({ method: 'POST', url: '/api/v1/users', headers: project.headers.server, payload });
const githubId = () => Math.floor(Math.random() * 1_000_000_000);

describe('POST /users with oauth_providers', () => {
  it('links the accounts: in the answer, GET /users/{id}, GET /oauth-providers and the user.created event', async () => {
    const email = newEmail('imported');
    const [googleSub, githubAccount] = [randomUUID(), String(githubId())];
    const created = await createUser({
      primary_email: email,
      primary_email_auth_enabled: true,
      oauth_providers: [
        { id: 'google', account_id: googleSub, email },
        { id: 'github', account_id: githubAccount, email: null },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const expected = [
      { id: 'google', account_id: googleSub, email },
      { id: 'github', account_id: githubAccount, email: null },
    ];
    expect(created.body.oauth_providers).toEqual(expected);
    const userId = created.body.id;
    const server = env.project.headers.server;
    expect((await env.context.request({ url: `/api/v1/users/${userId}`, headers: server })).body.oauth_providers).toEqual(expected);

    const links = await env.context.request({ url: `/api/v1/oauth-providers?user_id=${userId}`, headers: server });
    expect(links.body.items).toEqual([
      expect.objectContaining({ user_id: userId, provider_config_id: 'google', type: 'google', account_id: googleSub, email }),
      expect.objectContaining({ user_id: userId, provider_config_id: 'github', type: 'github', account_id: githubAccount }),
    ]);
    for (const link of links.body.items) expect(link).toMatchObject({ allow_sign_in: true, allow_connected_accounts: true });

    const event = await env.context.database.db
      .selectFrom('event')
      .select('data')
      .where('project_id', '=', env.project.project.id)
      .where('type', '=', 'user.created')
      .where(sql`data->>'id'`, '=', userId)
      .executeTakeFirstOrThrow();
    expect(event.data).toEqual(created.body);
  });

  it('an imported account signs the user in through the OAuth flow', async () => {
    const [googleSub, githubAccount] = [randomUUID(), githubId()];
    const created = await createUser({
      display_name: 'Imported',
      oauth_providers: [
        { id: 'google', account_id: googleSub },
        { id: 'github', account_id: String(githubAccount), email: null },
      ],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.oauth_providers).toEqual([
      { id: 'google', account_id: googleSub, email: null },
      { id: 'github', account_id: String(githubAccount), email: null },
    ]);

    mock.state.profile = { sub: googleSub, email: newEmail('provider'), email_verified: true, name: 'Someone Else' };
    const viaGoogle = await flows.signIn();
    expect(viaGoogle.status, viaGoogle.text).toBe(200);
    expect(viaGoogle.body.is_new_user).toBe(false);
    expect(decodeJwt(viaGoogle.body.access_token).sub).toBe(created.body.id);

    mock.state.profile = { id: githubAccount, login: 'imported-octo', email: null };
    mock.state.emails = [];
    const viaGithub = await flows.signIn({ provider: 'github' });
    expect(viaGithub.body.is_new_user).toBe(false);
    expect(decodeJwt(viaGithub.body.access_token).sub).toBe(created.body.id);
  });

  it('refuses a malformed entry with SCHEMA_ERROR', async () => {
    expectError(await createUser({ oauth_providers: [{ id: 'google' }] }), 400, 'SCHEMA_ERROR');
    expectError(await createUser({ oauth_providers: [{ id: 'google', account_id: 'x', allow_sign_in: false }] }), 400, 'SCHEMA_ERROR');
  });
});

describe('a refused link creates nothing', () => {
  let project: TestProject;
  let taken: string;
  beforeAll(async () => {
    project = await env.context.createProject(baseConfig);
    taken = randomUUID();
    const owner = await createUser({ oauth_providers: [{ id: 'google', account_id: taken }] }, project);
    expect(owner.status, owner.text).toBe(201);
  });

  /** Users, links and user.created events of the project, and whether the email's owner exists. */
  const state = async (email: string) => {
    const { db } = env.context.database;
    const count = async (table: 'project_user' | 'oauth_account') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select(({ fn }) => fn.countAll().as('count'))
            .where('project_id', '=', project.project.id)
            .executeTakeFirstOrThrow()
        ).count,
      );
    const events = await db
      .selectFrom('event')
      .select('id')
      .where('project_id', '=', project.project.id)
      .where('type', '=', 'user.created')
      .execute();
    const listed = await env.context.request({ url: `/api/v1/users?query=${encodeURIComponent(email)}`, headers: project.headers.server });
    return { users: await count('project_user'), links: await count('oauth_account'), events: events.length, listed: listed.body.items };
  };

  /** The request is refused, nothing changed, and the same user without the bad entry is then created. */
  async function expectNothingCreated(
    entries: Array<Record<string, unknown>>,
    check: (response: Awaited<ReturnType<typeof createUser>>) => void,
  ) {
    const email = newEmail('atomic');
    const before = await state(email);
    const payload = { primary_email: email, primary_email_auth_enabled: true, display_name: 'Half imported', oauth_providers: entries };
    check(await createUser(payload, project));
    expect(await state(email)).toEqual(before);
    expect(before.listed).toEqual([]);
    // The email was not kept by a rolled-back contact channel.
    const retried = await createUser({ ...payload, oauth_providers: entries.slice(0, 1) }, project);
    expect(retried.status, retried.text).toBe(201);
  }

  it('an unknown provider config is a plain 404', async () => {
    await expectNothingCreated(
      [
        { id: 'github', account_id: randomUUID() },
        { id: 'facebook', account_id: randomUUID() },
      ],
      (response) => expectPlain(response, 404),
    );
  });

  it('a provider account that signs in another user is OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN', async () => {
    await expectNothingCreated(
      [
        { id: 'github', account_id: randomUUID() },
        { id: 'google', account_id: taken, email: null },
      ],
      (response) => expectError(response, 400, 'OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN'),
    );
  });

  it('two sign-in accounts of one provider type are a plain 400', async () => {
    await expectNothingCreated(
      [
        { id: 'google', account_id: randomUUID() },
        { id: 'work', account_id: randomUUID() },
      ],
      (response) => expectPlain(response, 400),
    );
  });
});
