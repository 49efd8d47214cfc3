import { beforeAll, describe, expect, it } from 'vitest';
import type { ContractResponse } from '@gatehouse/testing/contract';
import { withTestContext } from '@gatehouse/testing/test-context';

/**
 * Every client team operation gated by a system team permission (docs/protocol/endpoints.md §12-§14), as a table:
 * a member holding nothing is refused with TEAM_PERMISSION_REQUIRED; the system permission granted
 * directly, or through a custom permission that contains it two levels deep, lets it through.
 */
const env = withTestContext();

type Headers = Record<string, string>;
type Method = 'GET' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, headers: Headers, payload?: object) =>
  env.context.request({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
const server = () => env.project.headers.server;

/** What a case sees: the team, the acting member's client headers, and the other member (the owner). */
type Scene = { teamId: string; actor: Headers; actorId: string; otherId: string };

type Case = {
  name: string;
  permission: '$update_team' | '$delete_team' | '$remove_members' | '$read_members';
  run: (scene: Scene) => Promise<ContractResponse>;
  /** Checks the success answer and its effect. */
  succeeded: (response: ContractResponse, scene: Scene) => Promise<void>;
  /** Checks that a refused call changed nothing. */
  unchanged: (scene: Scene) => Promise<void>;
};

const memberIds = async (teamId: string) =>
  ((await call('GET', `/team-member-profiles?team_id=${teamId}`, server())).body.items as Array<{ user_id: string }>)
    .map((item) => item.user_id)
    .sort();

const cases: Case[] = [
  {
    name: 'PATCH /teams/{team_id}',
    permission: '$update_team',
    run: ({ teamId, actor }) => call('PATCH', `/teams/${teamId}`, actor, { display_name: 'Changed' }),
    succeeded: async (response, { teamId }) => {
      expect(response.body).toMatchObject({ id: teamId, display_name: 'Changed' });
      expect(response.body).not.toHaveProperty('server_metadata');
    },
    unchanged: async ({ teamId }) => expect((await call('GET', `/teams/${teamId}`, server())).body.display_name).toBe('Matrix'),
  },
  {
    name: 'DELETE /teams/{team_id}',
    permission: '$delete_team',
    run: ({ teamId, actor }) => call('DELETE', `/teams/${teamId}`, actor),
    succeeded: async (response, { teamId }) => {
      expect(response.body).toEqual({ success: true });
      expect((await call('GET', `/teams/${teamId}`, server())).status).toBe(404);
    },
    unchanged: async ({ teamId }) => expect((await call('GET', `/teams/${teamId}`, server())).status).toBe(200),
  },
  {
    name: 'DELETE /team-memberships/{team_id}/{other user}',
    permission: '$remove_members',
    run: ({ teamId, actor, otherId }) => call('DELETE', `/team-memberships/${teamId}/${otherId}`, actor),
    succeeded: async (response, { teamId, actorId }) => {
      expect(response.body).toEqual({ success: true });
      expect(await memberIds(teamId)).toEqual([actorId]);
    },
    unchanged: async ({ teamId, actorId, otherId }) => expect(await memberIds(teamId)).toEqual([actorId, otherId].sort()),
  },
  {
    name: 'GET /team-member-profiles?team_id= (everyone)',
    permission: '$read_members',
    run: ({ teamId, actor }) => call('GET', `/team-member-profiles?team_id=${teamId}`, actor),
    succeeded: async (response, { actorId, otherId }) => {
      expect(response.body.items.map((item: { user_id: string }) => item.user_id).sort()).toEqual([actorId, otherId].sort());
      for (const item of response.body.items) expect(item).not.toHaveProperty('user');
    },
    unchanged: async () => {},
  },
  {
    name: 'GET /team-member-profiles/{team_id}/{other user}',
    permission: '$read_members',
    run: ({ teamId, actor, otherId }) => call('GET', `/team-member-profiles/${teamId}/${otherId}`, actor),
    succeeded: async (response, { teamId, otherId }) => {
      expect(response.body).toEqual({ team_id: teamId, user_id: otherId, display_name: null, profile_image_url: null });
    },
    unchanged: async () => {},
  },
];

const bare = (permission: string) => permission.slice(1);
/** The custom chain `matrix_<p>_outer` ⊃ `matrix_<p>_inner` ⊃ `$<p>`. */
const outerOf = (permission: string) => `matrix_${bare(permission)}_outer`;

beforeAll(async () => {
  const admin = env.project.headers.admin;
  for (const permission of new Set(cases.map((entry) => entry.permission))) {
    const inner = `matrix_${bare(permission)}_inner`;
    const define = (id: string, contained: string) =>
      env.context.request({
        method: 'POST',
        url: '/api/v1/team-permission-definitions',
        headers: admin,
        payload: { id, contained_permission_ids: [contained] },
      });
    expect((await define(inner, permission)).status).toBe(201);
    expect((await define(outerOf(permission), inner)).status).toBe(201);
  }
});

/** A fresh team: the owner (team_admin) and the actor, a member left with no permission at all. */
async function scene(): Promise<Scene> {
  const { users, signIn, teams, permissions } = env.context.services;
  const project = env.project.project;
  const owner = await users.create(project, { display_name: 'Owner' }, 'server');
  const actor = await users.create(project, { display_name: 'Actor' }, 'server');
  const team = await teams.create(project, { display_name: 'Matrix' }, owner.id);
  await teams.addMember(project, team.id, actor.id);
  await permissions.revokeTeam(project.id, team.id, actor.id, 'team_member');
  const { access_token } = await signIn.signIn(project, actor);
  return {
    teamId: team.id,
    actor: { ...env.project.headers.client, 'x-stack-access-token': access_token },
    actorId: actor.id,
    otherId: owner.id,
  };
}

const grant = (current: Scene, permissionId: string) =>
  env.context.request({
    method: 'POST',
    url: `/api/v1/team-permissions/${current.teamId}/${current.actorId}/${permissionId}`,
    headers: server(),
    payload: {},
  });

describe.each(cases)('$name (needs $permission)', (entry) => {
  it('refuses a member holding no permission with TEAM_PERMISSION_REQUIRED', async () => {
    const current = await scene();
    const response = await entry.run(current);
    expect(response.status, response.text).toBe(401);
    expect(response.body.code).toBe('TEAM_PERMISSION_REQUIRED');
    expect(response.body.details).toEqual({ team_id: current.teamId, user_id: current.actorId, permission_id: entry.permission });
    await entry.unchanged(current);
  });

  it.each([
    ['the system permission granted directly', (permission: string) => permission],
    ['a custom permission containing it two levels deep', outerOf],
  ])('lets a member holding %s through', async (_label, granted) => {
    const current = await scene();
    expect((await grant(current, granted(entry.permission))).status).toBe(201);
    const response = await entry.run(current);
    expect(response.status, response.text).toBe(200);
    await entry.succeeded(response, current);
  });
});
