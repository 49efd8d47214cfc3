import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { withTestContext } from '@gatehouse/testing/test-context';
import type { UserWrite } from '../../identity/users/user-writes.ts';

/**
 * POST /team-invitations/{id}/accept?user_id= (docs/protocol/endpoints.md §15, newer): accepting a pending invitation
 * addressed to the user by its id, with client (`me`) or server access; the emailed code is used up with it.
 */
const trustedDomains = { app: { baseUrl: 'https://app.example.com', handlerPath: '/handler' } };
const env = withTestContext({ projectConfig: { 'domains.trustedDomains': trustedDomains } });
const callback = 'https://app.example.com/handler/team-invitation';

type Headers = Record<string, string>;
const call = (method: 'GET' | 'POST', url: string, headers: Headers, payload?: object) =>
  env.context.request({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
const server = () => env.project.headers.server;
const newEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;

async function newUser(email: string | null = newEmail('user'), write: UserWrite = {}, verified = true) {
  const { users, signIn } = env.context.services;
  const primary = email ? { primary_email: email, primary_email_verified: verified, primary_email_auth_enabled: true } : {};
  const user = await users.create(env.project.project, { ...primary, ...write }, write.is_anonymous ? 'anonymous' : 'server');
  const { access_token } = await signIn.signIn(env.project.project, user);
  return { id: user.id, client: { ...env.project.headers.client, 'x-stack-access-token': access_token } };
}

const newTeam = async (name = 'Crew') => (await env.context.services.teams.create(env.project.project, { display_name: name })).id;

async function invite(teamId: string, email = newEmail('invitee')) {
  const response = await call('POST', '/team-invitations/send-code', server(), { team_id: teamId, email, callback_url: callback });
  expect(response.status, response.text).toBe(200);
  return { id: response.body.id as string, email, code: env.context.codeSentTo(email) };
}

const acceptById = (id: string, userId: string, headers: Headers, payload?: object) =>
  call('POST', `/team-invitations/${id}/accept?user_id=${userId}`, headers, payload);
const teamIdsOf = async (headers: Headers) => (await call('GET', '/teams', headers)).body.items.map((team: { id: string }) => team.id);
const pendingIds = async (teamId: string) =>
  (await call('GET', `/team-invitations?team_id=${teamId}`, server())).body.items.map((item: { id: string }) => item.id);

describe('POST /team-invitations/{id}/accept', () => {
  it('lets the invited user join with client access (user_id=me), using the invitation and its code up', async () => {
    const teamId = await newTeam('By Id');
    const { id, email, code } = await invite(teamId);
    const invitee = await newUser(email);
    const accepted = await acceptById(id, 'me', invitee.client);
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toEqual({});
    expect(await teamIdsOf(invitee.client)).toEqual([teamId]);
    const grants = await call('GET', `/team-permissions?team_id=${teamId}&user_id=${invitee.id}&recursive=false`, server());
    expect(grants.body.items.map((item: { id: string }) => item.id)).toEqual(['team_member']);
    expect(await pendingIds(teamId)).toEqual([]);
    // The emailed code is used up, and the id no longer names a pending invitation.
    expectError(await call('POST', '/team-invitations/accept', invitee.client, { code }), 409, 'VERIFICATION_CODE_ALREADY_USED');
    expectError(await acceptById(id, 'me', invitee.client), 404, 'VERIFICATION_CODE_NOT_FOUND');
  });

  it('lets server access accept for any user by id, also naming the own id from a client', async () => {
    const teamId = await newTeam();
    const first = await invite(teamId);
    const firstUser = await newUser(first.email);
    const byServer = await acceptById(first.id, firstUser.id, server(), {});
    expect(byServer.status, byServer.text).toBe(200);
    expect(await teamIdsOf(firstUser.client)).toEqual([teamId]);

    const second = await invite(teamId);
    const secondUser = await newUser(second.email);
    expect((await acceptById(second.id, secondUser.id.toUpperCase(), secondUser.client)).status).toBe(200);
    expect(await teamIdsOf(secondUser.client)).toEqual([teamId]);
  });

  it('treats an invitation for someone else, unverified, revoked, expired or unknown as not found, changing nothing', async () => {
    const teamId = await newTeam();
    const { id, email } = await invite(teamId);
    const stranger = await newUser();
    const unverified = await newUser(email, {}, false);
    for (const user of [stranger, unverified]) {
      expectError(await acceptById(id, 'me', user.client), 404, 'VERIFICATION_CODE_NOT_FOUND');
      expect(await teamIdsOf(user.client)).toEqual([]);
    }
    expectError(await acceptById(randomUUID(), 'me', stranger.client), 404, 'VERIFICATION_CODE_NOT_FOUND');
    expect(await pendingIds(teamId)).toEqual([id]);

    const revoked = await invite(teamId);
    const revokedUser = await newUser(revoked.email);
    const revoke = await env.context.request({
      method: 'DELETE',
      url: `/api/v1/team-invitations/${revoked.id}?team_id=${teamId}`,
      headers: server(),
    });
    expect(revoke.status).toBe(200);
    expectError(await acceptById(revoked.id, 'me', revokedUser.client), 404, 'VERIFICATION_CODE_NOT_FOUND');

    const expired = await invite(teamId);
    const expiredUser = await newUser(expired.email);
    await env.context.expireCode(expired.code);
    expectError(await acceptById(expired.id, 'me', expiredUser.client), 404, 'VERIFICATION_CODE_NOT_FOUND');
    expect(await teamIdsOf(revokedUser.client)).toEqual([]);
    expect(await teamIdsOf(expiredUser.client)).toEqual([]);
  });

  it('refuses anonymous and admin-restricted users with the reason, keeping the invitation', async () => {
    const teamId = await newTeam();
    const { id, email } = await invite(teamId);
    const restricted = await newUser(email, { restricted_by_admin: true, restricted_by_admin_reason: 'spam' });
    const allowed = { ...restricted.client, 'x-stack-allow-restricted-user': 'true' };
    expectError(await acceptById(id, 'me', allowed), 403, 'TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED', {
      restricted_reason: { type: 'restricted_by_administrator' },
    });
    expectError(await acceptById(id, restricted.id, server()), 403, 'TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED', {
      restricted_reason: { type: 'restricted_by_administrator' },
    });
    expect(await pendingIds(teamId)).toEqual([id]);
  });

  it('answers a client without a user, a client naming another user, and an unknown user clearly', async () => {
    const teamId = await newTeam();
    const { id, email } = await invite(teamId);
    const invitee = await newUser(email);
    const other = await newUser();
    expectError(await acceptById(id, 'me', env.project.headers.client), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    expectPlain(await acceptById(id, invitee.id, other.client), 403);
    expectError(await acceptById(id, randomUUID(), server()), 404, 'USER_NOT_FOUND');
    expectError(await acceptById(id, 'someone', server()), 400, 'SCHEMA_ERROR');
    expectError(await acceptById('not-a-uuid', 'me', invitee.client), 400, 'SCHEMA_ERROR');
    expect(await pendingIds(teamId)).toEqual([id]);
    expect(await teamIdsOf(invitee.client)).toEqual([]);
  });
});
