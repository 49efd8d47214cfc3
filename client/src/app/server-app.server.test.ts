import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';
import { ownKeys } from '@gatehouse/testing/oauth-test-flow';
import {
  InvalidSecretServerKeyError,
  OauthProviderAccountIdAlreadyUsedForSignInError,
  TeamMembershipNotFoundError,
  UserEmailAlreadyExistsError,
} from '../errors.ts';
import { createMemoryTokenStore } from '../token-store/memory-token-store.ts';
import { createClientApp } from './client-app.ts';
import { createServerApp } from './server-app.ts';

/** The server app against the real server over HTTP. */
const env = withTestContext({
  listen: true,
  projectConfig: { 'auth.password.allowSignIn': true, 'auth.oauth.providers': { github: ownKeys('github') } },
});

const newEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;
const newServerApp = (secretServerKey = env.project.keys.secret_server_key) =>
  createServerApp({ baseUrl: env.baseUrl, projectId: env.project.project.id, secretServerKey });
const clientAppWith = (tokens: { accessToken: string; refreshToken: string }) =>
  createClientApp({
    baseUrl: env.baseUrl,
    projectId: env.project.project.id,
    publishableClientKey: env.project.keys.publishable_client_key,
    tokenStore: createMemoryTokenStore(tokens),
  });

describe('createServerApp against the server', () => {
  it('creates, finds, updates and deletes users', async () => {
    const server = newServerApp();
    const email = newEmail('ada');
    const user = await server.users.create({
      primary_email: email,
      primary_email_auth_enabled: true,
      display_name: 'Ada',
      server_metadata: { plan: 'free' },
    });
    expect(user).toMatchObject({ primary_email: email, display_name: 'Ada', server_metadata: { plan: 'free' }, has_password: false });
    expect((await server.users.get(user.id))?.id).toBe(user.id);
    expect(await server.users.get(randomUUID())).toBeNull();
    await expect(server.users.create({ primary_email: email, primary_email_auth_enabled: true })).rejects.toBeInstanceOf(
      UserEmailAlreadyExistsError,
    );

    const updated = await server.users.update(user.id, { server_metadata: { plan: 'pro' }, password: 'correct horse battery' });
    expect(updated).toMatchObject({ server_metadata: { plan: 'pro' }, has_password: true });
    const page = await server.users.list({ query: email, limit: 10 });
    expect(page.items.map((listed) => listed.id)).toEqual([user.id]);
    expect(page.pagination?.next_cursor).toBeNull();

    await server.users.delete(user.id);
    expect(await server.users.get(user.id)).toBeNull();
  });

  it('imports a user with its linked provider accounts', async () => {
    const server = newServerApp();
    const accountId = randomUUID();
    const user = await server.users.create({
      display_name: 'Imported',
      oauth_providers: [{ id: 'github', account_id: accountId, email: null }],
    });
    expect(user.oauth_providers).toEqual([{ id: 'github', account_id: accountId, email: null }]);
    await expect(server.users.create({ oauth_providers: [{ id: 'github', account_id: accountId }] })).rejects.toBeInstanceOf(
      OauthProviderAccountIdAlreadyUsedForSignInError,
    );
  });

  it('impersonates a user: the session signs a client in as them and is listed as an impersonation', async () => {
    const server = newServerApp();
    const user = await server.users.create({ primary_email: newEmail('grace'), display_name: 'Grace' });
    const tokens = await server.sessions.impersonate(user.id);

    const client = clientAppWith(tokens);
    expect(await client.getUser()).toMatchObject({ id: user.id, display_name: 'Grace' });
    expect((await server.users.getByAccessToken(tokens.accessToken))?.id).toBe(user.id);
    expect(await server.users.getByAccessToken('not-a-token')).toBeNull();

    const sessions = await server.sessions.list(user.id);
    expect(sessions.map((session) => session.is_impersonation)).toEqual([true]);
    await server.sessions.revoke(user.id, sessions[0]!.id);
    expect(await server.sessions.list(user.id)).toEqual([]);
    const plain = await server.sessions.create(user.id, { expiresInMillis: 60_000 });
    expect((await server.sessions.list(user.id)).map((session) => session.is_impersonation)).toEqual([false]);
    expect((await clientAppWith(plain).getUser())?.id).toBe(user.id);
  });

  it('manages teams, memberships and team and project permissions', async () => {
    const server = newServerApp();
    const owner = await server.users.create({ primary_email: newEmail('owner') });
    const member = await server.users.create({ primary_email: newEmail('member') });
    const team = await server.teams.create({ display_name: 'Engines', creator_user_id: owner.id, server_metadata: { tier: 2 } });
    expect(team).toMatchObject({ display_name: 'Engines', server_metadata: { tier: 2 } });
    expect(await server.teams.get(randomUUID())).toBeNull();

    await server.teams.addMember(team.id, member.id);
    expect((await server.teams.listMembers(team.id)).map((profile) => profile.user_id).sort()).toEqual([owner.id, member.id].sort());
    expect((await server.teams.list({ userId: member.id })).map((listed) => listed.id)).toEqual([team.id]);
    expect(await server.teamPermissions.has(team.id, member.id, '$update_team')).toBe(false);
    expect(await server.teamPermissions.has(team.id, owner.id, '$update_team')).toBe(true);

    await server.teamPermissions.grant(team.id, member.id, 'team_admin');
    expect(await server.teamPermissions.has(team.id, member.id, '$update_team')).toBe(true);
    expect(
      (await server.teamPermissions.list({ teamId: team.id, userId: member.id, recursive: false })).map((grant) => grant.id).sort(),
    ).toEqual(['team_admin', 'team_member']);
    await server.teamPermissions.revoke(team.id, member.id, 'team_admin');
    expect(await server.teamPermissions.has(team.id, member.id, '$update_team')).toBe(false);

    await server.teams.removeMember(team.id, member.id);
    await expect(server.teams.removeMember(team.id, member.id)).rejects.toBeInstanceOf(TeamMembershipNotFoundError);
    expect((await server.teams.update(team.id, { display_name: 'Looms' })).display_name).toBe('Looms');
    await server.teams.delete(team.id);
    expect(await server.teams.get(team.id)).toBeNull();

    expect(await server.projectPermissions.list({ userId: owner.id })).toEqual([]);
  });

  it('refuses a wrong secret server key with the typed error', async () => {
    await expect(newServerApp('ssk_wrong').users.list()).rejects.toBeInstanceOf(InvalidSecretServerKeyError);
  });
});
