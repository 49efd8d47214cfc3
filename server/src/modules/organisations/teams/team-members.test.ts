import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContractResponse } from '@gatehouse/testing/contract';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import { newSignedInUser } from '@gatehouse/testing/users-fixture';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';

/**
 * Team memberships and member profiles (docs/protocol/endpoints.md §13-§14, docs/protocol/entities.md TeamMemberProfile), and the
 * personal team of `teams.createPersonalTeamOnSignUp` with the user's selected team.
 */
const env = withTestContext();
let personal: TestProject;
beforeAll(async () => {
  personal = await env.context.createProject({ 'teams.createPersonalTeamOnSignUp': true, 'auth.password.allowSignIn': true });
});

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, headers: Headers, payload?: object) =>
  env.context.request({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
const server = (project: TestProject = env.project) => project.headers.server;
const ids = (response: ContractResponse): string[] => response.body.items.map((item: { user_id: string }) => item.user_id).sort();

const newUser = (project: TestProject = env.project, displayName = 'Member') =>
  newSignedInUser(env.context, project, { display_name: displayName });

/** A team created by `owner` (team_admin) with `members` added (team_member). */
async function teamWith(owner: { id: string }, ...members: Array<{ id: string }>) {
  const { teams } = env.context.services;
  const team = await teams.create(env.project.project, { display_name: 'Crew' }, owner.id);
  for (const member of members) await teams.addMember(env.project.project, team.id, member.id);
  return team.id;
}

const directGrants = async (teamId: string, userId: string) =>
  (await call('GET', `/team-permissions?team_id=${teamId}&user_id=${userId}&recursive=false`, server())).body.items;

describe('POST /team-memberships/{team_id}/{user_id}', () => {
  it('adds the user with the team-member default permissions', async () => {
    const owner = await newUser();
    const user = await newUser();
    const teamId = await teamWith(owner);
    const added = await call('POST', `/team-memberships/${teamId}/${user.id}`, server(), {});
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ team_id: teamId, user_id: user.id });
    expect(await directGrants(teamId, user.id)).toEqual([{ id: 'team_member', team_id: teamId, user_id: user.id }]);
    expect((await call('GET', '/teams', user.client)).body.items.map((team: { id: string }) => team.id)).toEqual([teamId]);
    expectError(await call('POST', `/team-memberships/${teamId}/${user.id}`, server(), {}), 409, 'TEAM_MEMBERSHIP_ALREADY_EXISTS');
  });

  it('resolves `me` to the token user and needs one', async () => {
    const user = await newUser();
    const teamId = await teamWith(await newUser());
    const added = await call('POST', `/team-memberships/${teamId}/me`, { ...server(), 'x-stack-access-token': user.token }, {});
    expect(added.body).toEqual({ team_id: teamId, user_id: user.id });
    expectError(await call('POST', `/team-memberships/${teamId}/me`, server(), {}), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
  });

  it('answers TEAM_NOT_FOUND and USER_NOT_FOUND', async () => {
    const user = await newUser();
    const unknownTeam = randomUUID();
    expectError(await call('POST', `/team-memberships/${unknownTeam}/${user.id}`, server(), {}), 404, 'TEAM_NOT_FOUND', {
      team_id: unknownTeam,
    });
    const teamId = await teamWith(user);
    expectError(await call('POST', `/team-memberships/${teamId}/${randomUUID()}`, server(), {}), 404, 'USER_NOT_FOUND');
  });
});

describe('DELETE /team-memberships/{team_id}/{user_id}', () => {
  it('lets a client leave with `me` while holding no permission at all', async () => {
    const member = await newUser();
    const teamId = await teamWith(await newUser(), member);
    expect((await call('DELETE', `/team-permissions/${teamId}/${member.id}/team_member`, server(), {})).status).toBe(200);
    expect(await directGrants(teamId, member.id)).toEqual([]);
    const left = await call('DELETE', `/team-memberships/${teamId}/me`, member.client, {});
    expect(left.status).toBe(200);
    expect(left.body).toEqual({ success: true });
    expect((await call('GET', '/teams', member.client)).body.items).toEqual([]);
    expectError(await call('DELETE', `/team-memberships/${teamId}/me`, member.client, {}), 404, 'TEAM_MEMBERSHIP_NOT_FOUND', {
      team_id: teamId,
      user_id: member.id,
    });
  });

  it('lets a holder of $remove_members remove another member, whose permissions and selected team go too', async () => {
    const owner = await newUser();
    const member = await newUser();
    const teamId = await teamWith(owner, member);
    await call('POST', `/team-permissions/${teamId}/${member.id}/$invite_members`, server(), {});
    await call('PATCH', '/users/me', member.client, { selected_team_id: teamId });
    expect((await call('GET', '/users/me', member.client)).body.selected_team?.id).toBe(teamId);

    const removed = await call('DELETE', `/team-memberships/${teamId}/${member.id}`, owner.client, {});
    expect(removed.body).toEqual({ success: true });
    expect(await directGrants(teamId, member.id)).toEqual([]);
    expect((await call('GET', '/users/me', member.client)).body).toMatchObject({ selected_team_id: null, selected_team: null });
    // Joining again starts from the defaults, not the old grants.
    await call('POST', `/team-memberships/${teamId}/${member.id}`, server(), {});
    expect(await directGrants(teamId, member.id)).toEqual([{ id: 'team_member', team_id: teamId, user_id: member.id }]);
  });

  it('removes anyone with server access; TEAM_MEMBERSHIP_NOT_FOUND and CANNOT_GET_OWN_USER_WITHOUT_USER', async () => {
    const member = await newUser();
    const teamId = await teamWith(await newUser(), member);
    expect((await call('DELETE', `/team-memberships/${teamId}/${member.id}`, server(), {})).body).toEqual({ success: true });
    expectError(await call('DELETE', `/team-memberships/${teamId}/${member.id}`, server(), {}), 404, 'TEAM_MEMBERSHIP_NOT_FOUND', {
      team_id: teamId,
      user_id: member.id,
    });
    expectError(await call('DELETE', `/team-memberships/${teamId}/me`, server(), {}), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
  });
});

describe('team member profiles', () => {
  it('are separate from the user’s own display name; clients change only their own', async () => {
    const owner = await newUser(env.project, 'Owner');
    const member = await newUser(env.project, 'Ada');
    const teamId = await teamWith(owner, member);
    const initial = await call('GET', `/team-member-profiles/${teamId}/me`, member.client);
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual({ team_id: teamId, user_id: member.id, display_name: null, profile_image_url: null });

    const changed = await call('PATCH', `/team-member-profiles/${teamId}/me`, member.client, {
      display_name: 'Ada at Crew',
      profile_image_url: 'https://img.example.com/ada.png',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({
      team_id: teamId,
      user_id: member.id,
      display_name: 'Ada at Crew',
      profile_image_url: 'https://img.example.com/ada.png',
    });
    expect((await call('GET', '/users/me', member.client)).body.display_name).toBe('Ada');
    const cleared = await call('PATCH', `/team-member-profiles/${teamId}/${member.id}`, member.client, { profile_image_url: null });
    expect(cleared.body).toEqual({ ...changed.body, profile_image_url: null });

    expectPlain(await call('PATCH', `/team-member-profiles/${teamId}/${owner.id}`, member.client, { display_name: 'Hijacked' }), 403);
    expect((await call('GET', `/team-member-profiles/${teamId}/${owner.id}`, server())).body.display_name).toBeNull();
  });

  it('embed the user in the server view', async () => {
    const owner = await newUser(env.project, 'Owner');
    const member = await newUser(env.project, 'Grace');
    const teamId = await teamWith(owner, member);
    const changed = await call('PATCH', `/team-member-profiles/${teamId}/${member.id}`, server(), { display_name: 'G' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      team_id: teamId,
      user_id: member.id,
      display_name: 'G',
      user: { id: member.id, display_name: 'Grace' },
    });
    const single = await call('GET', `/team-member-profiles/${teamId}/${member.id}`, server());
    expect(single.body).toEqual(changed.body);

    const listed = await call('GET', `/team-member-profiles?team_id=${teamId}`, server());
    expect(listed.body.is_paginated).toBe(false);
    expect(ids(listed)).toEqual([owner.id, member.id].sort());
    for (const item of listed.body.items) expect(item.user.id).toBe(item.user_id);
    const otherTeam = await teamWith(owner);
    const byUser = await call('GET', `/team-member-profiles?user_id=${owner.id}`, server());
    expect(byUser.body.items.map((item: { team_id: string }) => item.team_id).sort()).toEqual([teamId, otherTeam].sort());
    const both = await call('GET', `/team-member-profiles?team_id=${teamId}&user_id=${member.id}`, server());
    expect(ids(both)).toEqual([member.id]);
  });

  it('list for clients needs the team: TEAM_ID_REQUIRED without team_id', async () => {
    const member = await newUser();
    await teamWith(member);
    expectError(await call('GET', '/team-member-profiles', member.client), 400, 'TEAM_ID_REQUIRED');
    expectError(await call('GET', '/team-member-profiles?user_id=me', member.client), 400, 'TEAM_ID_REQUIRED');
  });

  it('list for clients: everyone with $read_members, oneself with nothing', async () => {
    const owner = await newUser();
    const member = await newUser();
    const teamId = await teamWith(owner, member);
    // team_member contains $read_members.
    const everyone = await call('GET', `/team-member-profiles?team_id=${teamId}`, member.client);
    expect(ids(everyone)).toEqual([owner.id, member.id].sort());
    for (const item of everyone.body.items) expect(item).not.toHaveProperty('user');

    await call('DELETE', `/team-permissions/${teamId}/${member.id}/team_member`, server(), {});
    for (const userId of ['me', member.id]) {
      const self = await call('GET', `/team-member-profiles?team_id=${teamId}&user_id=${userId}`, member.client);
      expect(self.status).toBe(200);
      expect(self.body.items).toEqual([{ team_id: teamId, user_id: member.id, display_name: null, profile_image_url: null }]);
    }
    const own = await call('GET', `/team-member-profiles/${teamId}/${member.id}`, member.client);
    expect(own.body).toEqual({ team_id: teamId, user_id: member.id, display_name: null, profile_image_url: null });
  });

  it('answer CANNOT_GET_OWN_USER_WITHOUT_USER for `me` without a token and TEAM_MEMBERSHIP_NOT_FOUND for non-members', async () => {
    const owner = await newUser();
    const teamId = await teamWith(owner);
    const anonymous = env.project.headers.client;
    expectError(
      await call('GET', `/team-member-profiles?team_id=${teamId}&user_id=me`, anonymous),
      400,
      'CANNOT_GET_OWN_USER_WITHOUT_USER',
    );
    expectError(await call('GET', `/team-member-profiles/${teamId}/me`, anonymous), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    expectError(
      await call('PATCH', `/team-member-profiles/${teamId}/me`, server(), { display_name: 'X' }),
      400,
      'CANNOT_GET_OWN_USER_WITHOUT_USER',
    );

    const outsider = await newUser();
    const notMember = { team_id: teamId, user_id: outsider.id };
    expectError(await call('GET', `/team-member-profiles/${teamId}/me`, outsider.client), 404, 'TEAM_MEMBERSHIP_NOT_FOUND', notMember);
    expectError(await call('GET', `/team-member-profiles/${teamId}/${outsider.id}`, server()), 404, 'TEAM_MEMBERSHIP_NOT_FOUND', notMember);
    const patch = await call('PATCH', `/team-member-profiles/${teamId}/${outsider.id}`, server(), { display_name: 'X' });
    expectError(patch, 404, 'TEAM_MEMBERSHIP_NOT_FOUND', notMember);
    expectError(
      await call('PATCH', `/team-member-profiles/${teamId}/me`, outsider.client, { display_name: 'X' }),
      404,
      'TEAM_MEMBERSHIP_NOT_FOUND',
    );
  });
});

describe('teams.createPersonalTeamOnSignUp', () => {
  it('gives a user created with server access a personal team it administers and has selected', async () => {
    const created = await call('POST', '/users', server(personal), { display_name: 'Linus' });
    expect(created.status).toBe(201);
    const teams = (await call('GET', `/teams?user_id=${created.body.id}`, server(personal))).body.items;
    expect(teams).toHaveLength(1);
    const teamId = teams[0].id;
    expect(created.body).toMatchObject({ selected_team_id: teamId, selected_team: { id: teamId } });
    const grants = await call('GET', `/team-permissions?team_id=${teamId}&user_id=${created.body.id}&recursive=false`, server(personal));
    expect(grants.body.items).toEqual([{ id: 'team_admin', team_id: teamId, user_id: created.body.id }]);
  });

  it('gives a password sign-up a selected personal team, and PATCH /users/me selects only own teams', async () => {
    const email = `owner-${randomUUID().slice(0, 8)}@example.com`;
    const signUp = await call('POST', '/auth/password/sign-up', personal.headers.client, { email, password: 'correct horse battery' });
    expect(signUp.status, signUp.text).toBe(200);
    const client = { ...personal.headers.client, 'x-stack-access-token': signUp.body.access_token };
    const me = await call('GET', '/users/me', client);
    const teams = (await call('GET', '/teams', client)).body.items;
    expect(teams).toHaveLength(1);
    expect(me.body.selected_team).toEqual(teams[0]);
    expect(me.body.selected_team_id).toBe(teams[0].id);

    const foreign = await env.context.services.teams.create(personal.project, { display_name: 'Foreign' });
    expectError(await call('PATCH', '/users/me', client, { selected_team_id: foreign.id }), 400, 'USER_FIELD_INVALID', {
      field: 'selected_team_id',
    });
    const second = await call(
      'POST',
      '/teams',
      { ...server(personal), 'x-stack-access-token': signUp.body.access_token },
      {
        display_name: 'Second',
        creator_user_id: 'me',
      },
    );
    const selected = await call('PATCH', '/users/me', client, { selected_team_id: second.body.id });
    expect(selected.status).toBe(200);
    expect(selected.body).toMatchObject({
      selected_team_id: second.body.id,
      selected_team: { id: second.body.id, display_name: 'Second' },
    });
    expect(selected.body.selected_team).not.toHaveProperty('server_metadata');
  });

  it('does nothing when the project leaves it off', async () => {
    const created = await call('POST', '/users', server(), { display_name: 'No team' });
    expect(created.body).toMatchObject({ selected_team_id: null, selected_team: null });
    expect((await call('GET', `/teams?user_id=${created.body.id}`, server())).body.items).toEqual([]);
  });
});
