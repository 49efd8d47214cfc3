import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContractResponse } from '@gatehouse/testing/contract';
import { type TestProject, testPublicUrl, testServerSecret, withTestContext } from '@gatehouse/testing/test-context';
import { newSignedInUser } from '@gatehouse/testing/users-fixture';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { createServer } from '../../../services.ts';

/**
 * Team and project permission grants (docs/protocol/endpoints.md §16, docs/protocol/entities.md Permissions): granting,
 * revoking, listing the closure over contained permissions or only the direct grants, and the
 * project permissions a new user gets from `rbac.defaultPermissions.signUp`.
 */
const env = withTestContext();

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, headers: Headers, payload?: object) =>
  env.context.request({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
const server = (project: TestProject = env.project) => project.headers.server;
const sortedIds = (response: ContractResponse): string[] => response.body.items.map((item: { id: string }) => item.id).sort();

const newUser = (project: TestProject = env.project) => newSignedInUser(env.context, project, { display_name: 'Member' });

const define = async (scope: 'team' | 'project', id: string, contained: string[] = [], project: TestProject = env.project) => {
  const response = await call('POST', `/${scope}-permission-definitions`, project.headers.admin, {
    id,
    contained_permission_ids: contained,
  });
  expect(response.status, response.text).toBe(201);
};

/** A team with `member` in it (holding team_member), created by someone else. */
async function teamOf(member: { id: string }) {
  const { teams } = env.context.services;
  const team = await teams.create(env.project.project, { display_name: 'Team' }, (await newUser()).id);
  await teams.addMember(env.project.project, team.id, member.id);
  return team.id;
}

beforeAll(async () => {
  // Three levels in each scope: top ⊃ mid ⊃ leaf (⊃ $invite_members for the team chain).
  await define('team', 'team_leaf', ['$invite_members']);
  await define('team', 'team_mid', ['team_leaf']);
  await define('team', 'team_top', ['team_mid']);
  await define('project', 'proj_leaf');
  await define('project', 'proj_mid', ['proj_leaf']);
  await define('project', 'proj_top', ['proj_mid']);
});

describe('POST /team-permissions/{team_id}/{user_id}/{permission_id}', () => {
  it('grants to a member, and granting twice is fine', async () => {
    const member = await newUser();
    const teamId = await teamOf(member);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const granted = await call('POST', `/team-permissions/${teamId}/${member.id}/team_top`, server(), {});
      expect(granted.status).toBe(201);
      expect(granted.body).toEqual({ id: 'team_top', user_id: member.id, team_id: teamId });
    }
    const system = await call(
      'POST',
      `/team-permissions/${teamId}/me/$update_team`,
      { ...server(), 'x-stack-access-token': member.token },
      {},
    );
    expect(system.body).toEqual({ id: '$update_team', user_id: member.id, team_id: teamId });
    const direct = await call('GET', `/team-permissions?team_id=${teamId}&user_id=${member.id}&recursive=false`, server());
    expect(sortedIds(direct)).toEqual(['$update_team', 'team_member', 'team_top'].sort());
  });

  it('answers PERMISSION_NOT_FOUND, WRONG_PERMISSION_SCOPE, TEAM_MEMBERSHIP_NOT_FOUND and CANNOT_GET_OWN_USER_WITHOUT_USER', async () => {
    const member = await newUser();
    const teamId = await teamOf(member);
    const url = (permissionId: string, userId = member.id, team = teamId) => `/team-permissions/${team}/${userId}/${permissionId}`;
    expectError(await call('POST', url('no_such_permission'), server(), {}), 404, 'PERMISSION_NOT_FOUND', {
      permission_id: 'no_such_permission',
    });
    expectError(await call('POST', url('$no_such_system'), server(), {}), 404, 'PERMISSION_NOT_FOUND', {
      permission_id: '$no_such_system',
    });
    expectError(await call('POST', url('proj_top'), server(), {}), 404, 'WRONG_PERMISSION_SCOPE', {
      permission_id: 'proj_top',
      expected_scope: 'team',
      actual_scope: 'project',
    });
    const outsider = await newUser();
    expectError(await call('POST', url('team_top', outsider.id), server(), {}), 404, 'TEAM_MEMBERSHIP_NOT_FOUND', {
      team_id: teamId,
      user_id: outsider.id,
    });
    const unknownTeam = randomUUID();
    expectError(await call('POST', url('team_top', member.id, unknownTeam), server(), {}), 404, 'TEAM_MEMBERSHIP_NOT_FOUND', {
      team_id: unknownTeam,
      user_id: member.id,
    });
    expectError(await call('POST', url('team_top', 'me'), server(), {}), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
  });
});

describe('DELETE /team-permissions/{team_id}/{user_id}/{permission_id}', () => {
  it('revokes a direct grant; revoking what is not held is TEAM_PERMISSION_NOT_FOUND', async () => {
    const member = await newUser();
    const teamId = await teamOf(member);
    await call('POST', `/team-permissions/${teamId}/${member.id}/team_top`, server(), {});
    const revoked = await call('DELETE', `/team-permissions/${teamId}/${member.id}/team_top`, server(), {});
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ success: true });
    expect(sortedIds(await call('GET', `/team-permissions?team_id=${teamId}&user_id=${member.id}&recursive=false`, server()))).toEqual([
      'team_member',
    ]);
    const again = await call('DELETE', `/team-permissions/${teamId}/${member.id}/team_top`, server(), {});
    expectError(again, 401, 'TEAM_PERMISSION_NOT_FOUND', { team_id: teamId, user_id: member.id, permission_id: 'team_top' });
    // Held only through team_member, never granted directly.
    const contained = await call('DELETE', `/team-permissions/${teamId}/${member.id}/$read_members`, server(), {});
    expectError(contained, 401, 'TEAM_PERMISSION_NOT_FOUND', { team_id: teamId, user_id: member.id, permission_id: '$read_members' });
    expectError(await call('DELETE', `/team-permissions/${teamId}/me/team_top`, server(), {}), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
  });
});

describe('GET /team-permissions', () => {
  it("lists the closure with recursive=true, only direct grants otherwise (the protocol's default), and filters by permission_id", async () => {
    const member = await newUser();
    const teamId = await teamOf(member);
    await call('POST', `/team-permissions/${teamId}/${member.id}/team_top`, server(), {});
    const base = `/team-permissions?team_id=${teamId}&user_id=${member.id}`;
    const closure = ['team_top', 'team_mid', 'team_leaf', '$invite_members', 'team_member', '$read_members'].sort();
    const listed = await call('GET', `${base}&recursive=true`, server());
    expect(listed.body.is_paginated).toBe(false);
    expect(sortedIds(listed)).toEqual(closure);
    for (const item of listed.body.items) expect(item).toEqual({ id: item.id, team_id: teamId, user_id: member.id });
    for (const query of ['', '&recursive=false']) {
      expect(sortedIds(await call('GET', `${base}${query}`, server()))).toEqual(['team_member', 'team_top']);
    }
    expect((await call('GET', `${base}&permission_id=team_leaf&recursive=true`, server())).body.items).toEqual([
      { id: 'team_leaf', team_id: teamId, user_id: member.id },
    ]);
    expect((await call('GET', `${base}&permission_id=team_leaf`, server())).body.items).toEqual([]);
    expect(sortedIds(await call('GET', `${base}&permission_id=$invite_members&recursive=true`, server()))).toEqual(['$invite_members']);
  });

  it('lets a client list only its own grants', async () => {
    const member = await newUser();
    const other = await newUser();
    const teamId = await teamOf(member);
    await env.context.services.teams.addMember(env.project.project, teamId, other.id);
    for (const query of [`?team_id=${teamId}`, `?team_id=${teamId}&user_id=me`, `?team_id=${teamId}&user_id=${member.id}`]) {
      const own = await call('GET', `/team-permissions${query}&recursive=false`, member.client);
      expect(own.status).toBe(200);
      expect(own.body.items).toEqual([{ id: 'team_member', team_id: teamId, user_id: member.id }]);
    }
    expectPlain(await call('GET', `/team-permissions?team_id=${teamId}&user_id=${other.id}`, member.client), 403);
    expectError(
      await call('GET', `/team-permissions?team_id=${teamId}`, env.project.headers.client),
      400,
      'CANNOT_GET_OWN_USER_WITHOUT_USER',
    );
    // Server access without a user lists every member of the team.
    const everyone = await call('GET', `/team-permissions?team_id=${teamId}&recursive=false`, server());
    expect(everyone.body.items.map((item: { user_id: string }) => item.user_id)).toEqual(expect.arrayContaining([member.id, other.id]));
    expect(everyone.body.items).toHaveLength(3);
  });
});

describe('project permissions', () => {
  it('grant (twice is fine), list the closure or direct grants, filter, and revoke', async () => {
    const user = await newUser();
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const granted = await call('POST', `/project-permissions/${user.id}/proj_top`, server(), {});
      expect(granted.status).toBe(201);
      expect(granted.body).toEqual({ id: 'proj_top', user_id: user.id });
    }
    const base = `/project-permissions?user_id=${user.id}`;
    const closure = await call('GET', `${base}&recursive=true`, server());
    expect(closure.body.is_paginated).toBe(false);
    expect(sortedIds(closure)).toEqual(['proj_leaf', 'proj_mid', 'proj_top']);
    expect(closure.body.items[0]).toEqual({ id: expect.any(String), user_id: user.id });
    expect(sortedIds(await call('GET', base, server()))).toEqual(['proj_top']);
    expect(sortedIds(await call('GET', `${base}&recursive=false`, server()))).toEqual(['proj_top']);
    expect(sortedIds(await call('GET', `${base}&permission_id=proj_mid&recursive=true`, server()))).toEqual(['proj_mid']);
    expect(sortedIds(await call('GET', `${base}&permission_id=proj_mid&recursive=false`, server()))).toEqual([]);

    const revoked = await call('DELETE', `/project-permissions/${user.id}/proj_top`, server(), {});
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ success: true });
    expect((await call('GET', base, server())).body.items).toEqual([]);
    const again = await call('DELETE', `/project-permissions/${user.id}/proj_top`, server(), {});
    expectError(again, 404, 'PERMISSION_NOT_FOUND', { permission_id: 'proj_top' });
  });

  it('answer USER_NOT_FOUND, PERMISSION_NOT_FOUND, WRONG_PERMISSION_SCOPE and CANNOT_GET_OWN_USER_WITHOUT_USER', async () => {
    const user = await newUser();
    expectError(await call('POST', `/project-permissions/${randomUUID()}/proj_top`, server(), {}), 404, 'USER_NOT_FOUND');
    expectError(await call('POST', `/project-permissions/${user.id}/nope`, server(), {}), 404, 'PERMISSION_NOT_FOUND', {
      permission_id: 'nope',
    });
    for (const teamPermission of ['team_top', '$update_team']) {
      expectError(await call('POST', `/project-permissions/${user.id}/${teamPermission}`, server(), {}), 404, 'WRONG_PERMISSION_SCOPE', {
        permission_id: teamPermission,
        expected_scope: 'project',
        actual_scope: 'team',
      });
    }
    expectError(await call('POST', '/project-permissions/me/proj_top', server(), {}), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    expectError(await call('DELETE', '/project-permissions/me/proj_top', server(), {}), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    const viaMe = await call('POST', '/project-permissions/me/proj_leaf', { ...server(), 'x-stack-access-token': user.token }, {});
    expect(viaMe.body).toEqual({ id: 'proj_leaf', user_id: user.id });
  });

  it('lets a client list only its own', async () => {
    const user = await newUser();
    const other = await newUser();
    await call('POST', `/project-permissions/${user.id}/proj_mid`, server(), {});
    for (const query of ['?recursive=true', '?user_id=me&recursive=true', `?user_id=${user.id}&recursive=true`]) {
      const own = await call('GET', `/project-permissions${query}`, user.client);
      expect(own.status).toBe(200);
      expect(own.body.items).toEqual([
        { id: 'proj_leaf', user_id: user.id },
        { id: 'proj_mid', user_id: user.id },
      ]);
    }
    expectPlain(await call('GET', `/project-permissions?user_id=${other.id}`, user.client), 403);
    expectError(await call('GET', '/project-permissions', env.project.headers.client), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
  });
});

describe('rbac.defaultPermissions.signUp', () => {
  it('gives every new user those project permissions (and what they contain)', async () => {
    const project = await env.context.createProject({
      'rbac.defaultPermissions.signUp': { signup_perk: true },
      'auth.password.allowSignIn': true,
    });
    await define('project', 'signup_base', [], project);
    await define('project', 'signup_perk', ['signup_base'], project);

    const created = await call('POST', '/users', server(project), { display_name: 'New' });
    expect(created.status).toBe(201);
    const direct = await call('GET', `/project-permissions?user_id=${created.body.id}&recursive=false`, server(project));
    expect(direct.body.items).toEqual([{ id: 'signup_perk', user_id: created.body.id }]);
    expect(sortedIds(await call('GET', `/project-permissions?user_id=${created.body.id}&recursive=true`, server(project)))).toEqual([
      'signup_base',
      'signup_perk',
    ]);

    const email = `perk-${randomUUID().slice(0, 8)}@example.com`;
    const signUp = await call('POST', '/auth/password/sign-up', project.headers.client, { email, password: 'correct horse battery' });
    expect(signUp.status, signUp.text).toBe(200);
    const own = await call('GET', '/project-permissions?recursive=false', {
      ...project.headers.client,
      'x-stack-access-token': signUp.body.access_token,
    });
    expect(own.body.items).toEqual([{ id: 'signup_perk', user_id: signUp.body.user_id }]);
  });

  it('still creates users when a default names a permission that is not defined', async () => {
    const project = await env.context.createProject({ 'rbac.defaultPermissions.signUp': { never_defined: true, kept_perk: true } });
    await define('project', 'kept_perk', [], project);
    const created = await call('POST', '/users', server(project), {});
    expect(created.status, created.text).toBe(201);
    expect(sortedIds(await call('GET', `/project-permissions?user_id=${created.body.id}`, server(project)))).toEqual(['kept_perk']);
  });
});

describe('the cached closure', () => {
  it('follows a definition change made through another server instance at once', async () => {
    const project = await env.context.createProject();
    // A second instance on the same database: its writes reach this instance only through Postgres.
    const otherInstance = createServer(env.context.database.db, { publicUrl: testPublicUrl, serverSecret: testServerSecret }).services
      .permissions;
    const user = await env.context.services.users.create(project.project, { display_name: 'Member' }, 'server');
    await otherInstance.createDefinition(project.project.id, 'project', { id: 'reader', contained_permission_ids: [] });
    await otherInstance.createDefinition(project.project.id, 'project', { id: 'editor', contained_permission_ids: ['reader'] });
    await call('POST', `/project-permissions/${user.id}/editor`, server(project), {});
    const listed = () => call('GET', `/project-permissions?user_id=${user.id}&recursive=true`, server(project)).then(sortedIds);
    expect(await listed()).toEqual(['editor', 'reader']);

    await otherInstance.createDefinition(project.project.id, 'project', { id: 'auditor', contained_permission_ids: [] });
    await otherInstance.updateDefinition(project.project.id, 'project', 'editor', { contained_permission_ids: ['auditor'] });
    expect(await listed()).toEqual(['auditor', 'editor']);
    await otherInstance.deleteDefinition(project.project.id, 'project', 'auditor');
    expect(await listed()).toEqual(['editor']);
  });
});
