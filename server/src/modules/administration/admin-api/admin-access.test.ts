import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { withTestContext } from '@gatehouse/testing/test-context';
import type { Project } from '../../../tenancy/project.ts';
import { adminTokenHeaders, ensureInternalProject, newDashboardUser } from '@gatehouse/testing/internal-project';

/**
 * The isolation of dashboard owners (docs/protocol/overview.md §3-§4): a project owner cannot reach another owner's
 * project with any credential they hold — admin access token, project keys or internal session.
 */
const env = withTestContext();
let internal: Project;
let internalKey: string;

beforeAll(async () => {
  const { project, keys } = await ensureInternalProject(env.context, { publishable_client_key: true });
  internal = project;
  internalKey = keys.publishable_client_key as string;
});

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, headers: Headers, payload?: object) =>
  env.context.request({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

const keyHeaders = (projectId: string, keys: Record<string, string>) => ({
  client: { 'x-stack-access-type': 'client', 'x-stack-project-id': projectId, 'x-stack-publishable-client-key': keys.pck as string },
  server: { 'x-stack-access-type': 'server', 'x-stack-project-id': projectId, 'x-stack-secret-server-key': keys.ssk as string },
  admin: { 'x-stack-access-type': 'admin', 'x-stack-project-id': projectId, 'x-stack-super-secret-admin-key': keys.sak as string },
});

/** An owner: an internal user, their team, and a project of that team with a full key set. */
async function newOwner(name: string) {
  const { user, token: access_token, team, client } = await newDashboardUser(env.context, internal, internalKey, name);
  const created = await call('POST', '/internal/projects', client, { display_name: `${name} project`, owner_team_id: team.id });
  expect(created.status, created.text).toBe(201);
  const projectId: string = created.body.id;
  const keySet = await call('POST', '/internal/api-keys', adminTokenHeaders(projectId, access_token), {
    description: 'all',
    expires_at_millis: Date.now() + 3_600_000,
    has_publishable_client_key: true,
    has_secret_server_key: true,
    has_super_secret_admin_key: true,
  });
  expect(keySet.status, keySet.text).toBe(200);
  const keys = { pck: keySet.body.publishable_client_key, ssk: keySet.body.secret_server_key, sak: keySet.body.super_secret_admin_key };
  return { user, token: access_token, teamId: team.id, client, projectId, keySetId: keySet.body.id as string, keys };
}
type Owner = Awaited<ReturnType<typeof newOwner>>;

let a: Owner;
let b: Owner;
beforeAll(async () => {
  a = await newOwner('A');
  b = await newOwner('B');
});

const current = (headers: Headers) => call('GET', '/internal/projects/current', headers);

describe("an owner's admin access token", () => {
  it('administers their own project', async () => {
    const response = await current(adminTokenHeaders(a.projectId, a.token));
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ id: a.projectId, owner_team_id: a.teamId });
  });

  it("is refused on another owner's project, whatever the operation or access type", async () => {
    const onB = adminTokenHeaders(b.projectId, a.token);
    expectError(await current(onB), 401, 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN');
    expectError(await call('PATCH', '/internal/projects/current', onB, { display_name: 'Taken' }), 401, 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN');
    expectError(await call('DELETE', '/internal/projects/current', onB), 401, 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN');
    expectError(await call('GET', '/internal/api-keys', onB), 401, 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN');
    expectError(
      await call('POST', '/internal/api-keys', onB, {
        description: 'mine now',
        expires_at_millis: Date.now() + 60_000,
        has_super_secret_admin_key: true,
      }),
      401,
      'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN',
    );
    expectError(await call('PATCH', `/internal/api-keys/${b.keySetId}`, onB, { revoked: true }), 401, 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN');
    // The token replaces the keys for every access type, so no lower type slips through.
    expectError(await call('GET', '/users', adminTokenHeaders(b.projectId, a.token, 'server')), 401, 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN');
    expectError(
      await call('GET', '/projects/current', adminTokenHeaders(b.projectId, a.token, 'client')),
      401,
      'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN',
    );
    // B's project is untouched and B's keys still work.
    const mine = await current(adminTokenHeaders(b.projectId, b.token));
    expect(mine.body).toMatchObject({ display_name: 'B project', owner_team_id: b.teamId });
    expect((await current(keyHeaders(b.projectId, b.keys).admin)).status).toBe(200);
  });

  it('does not administer the internal project, which no team owns', async () => {
    expectError(await current(adminTokenHeaders('internal', a.token)), 401, 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN');
  });
});

describe("an owner's project keys", () => {
  it('are refused with the project id of another project', async () => {
    const mine = keyHeaders(a.projectId, a.keys);
    expect((await call('GET', '/projects/current', mine.client)).status).toBe(200);
    expect((await call('GET', '/users', mine.server)).status).toBe(200);
    expect((await current(mine.admin)).status).toBe(200);
    for (const target of [b.projectId, 'internal']) {
      const onOther = keyHeaders(target, a.keys);
      expectError(await call('GET', '/projects/current', onOther.client), 401, 'INVALID_PUBLISHABLE_CLIENT_KEY');
      expectError(await call('GET', '/users', onOther.server), 401, 'INVALID_SECRET_SERVER_KEY');
      expectError(await current(onOther.admin), 401, 'INVALID_SUPER_SECRET_ADMIN_KEY');
    }
  });

  it('stop working once revoked, at once', async () => {
    const owner = await newOwner('Revoker');
    const revoked = await call('PATCH', `/internal/api-keys/${owner.keySetId}`, adminTokenHeaders(owner.projectId, owner.token), {
      revoked: true,
    });
    expect(revoked.status, revoked.text).toBe(200);
    const headers = keyHeaders(owner.projectId, owner.keys);
    expectError(await current(headers.admin), 401, 'INVALID_SUPER_SECRET_ADMIN_KEY');
    expectError(await call('GET', '/users', headers.server), 401, 'INVALID_SECRET_SERVER_KEY');
    expectError(await call('GET', '/projects/current', headers.client), 401, 'INVALID_PUBLISHABLE_CLIENT_KEY');
  });
});

describe("an owner's internal session", () => {
  it("neither lists nor transfers nor creates into another owner's team", async () => {
    const listed = await call('GET', '/internal/projects', a.client);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.items.map((project: { id: string }) => project.id)).toEqual([a.projectId]);
    const transfer = await call('POST', '/internal/projects/transfer', a.client, { project_id: b.projectId, new_team_id: a.teamId });
    expectError(transfer, 404, 'PROJECT_NOT_FOUND');
    const push = await call('POST', '/internal/projects/transfer', a.client, { project_id: a.projectId, new_team_id: b.teamId });
    expect(push.status, push.text).toBe(400);
    const planted = await call('POST', '/internal/projects', a.client, { display_name: 'Planted', owner_team_id: b.teamId });
    expect(planted.status, planted.text).toBe(400);
    const bList = (await call('GET', '/internal/projects', b.client)).body.items;
    expect(bList.map((project: { id: string; owner_team_id: string }) => [project.id, project.owner_team_id])).toEqual([
      [b.projectId, b.teamId],
    ]);
  });

  it('is not an admin token on the project itself: only internal users are admins', async () => {
    const project = (await env.context.services.projects.find(a.projectId)) as Project;
    const { users, signIn } = env.context.services;
    const user = await users.create(project, { display_name: 'End user' }, 'server');
    const { access_token } = await signIn.signIn(project, user);
    expectError(await current(adminTokenHeaders(a.projectId, access_token)), 401, 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN');
    expectError(await current(adminTokenHeaders(b.projectId, access_token)), 401, 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN');
  });
});

describe('losing membership', () => {
  it('refuses the admin token as soon as the owner leaves the team', async () => {
    const owner = await newOwner('Leaver');
    const mate = await newOwner('Mate');
    await env.context.services.teams.addMember(internal, owner.teamId, mate.user.id);
    expect((await current(adminTokenHeaders(owner.projectId, mate.token))).status).toBe(200);
    await env.context.services.teams.removeMember(internal.id, owner.teamId, owner.user.id);
    expectError(await current(adminTokenHeaders(owner.projectId, owner.token)), 401, 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN');
    expect((await call('GET', '/internal/projects', owner.client)).body.items).toEqual([]);
    // The team still owns the project: the remaining member keeps managing it.
    expect((await current(adminTokenHeaders(owner.projectId, mate.token))).status).toBe(200);
  });

  it('answers the plain-text 401 of docs/protocol/overview.md §4 to the admin token of a deleted internal user, whatever the operation', async () => {
    const owner = await newOwner('Deleted');
    await env.context.services.users.delete(internal, owner.user.id);
    const text = 'The user associated with the admin access token is no longer valid. Please refresh the admin access token and try again.';
    for (const response of [
      await current(adminTokenHeaders(owner.projectId, owner.token)),
      await call('PATCH', '/internal/projects/current', adminTokenHeaders(owner.projectId, owner.token), { display_name: 'Orphan' }),
      await call('GET', '/users', adminTokenHeaders(owner.projectId, owner.token, 'server')),
      await call('GET', '/projects/current', adminTokenHeaders(owner.projectId, owner.token, 'client')),
      // Not even a project the user never managed reveals more.
      await current(adminTokenHeaders(b.projectId, owner.token)),
    ]) {
      expectPlain(response, 401);
      expect(response.text).toBe(text);
    }
    // The project is untouched; its owner team (now empty) still owns it.
    const project = await env.context.services.projects.find(owner.projectId);
    expect(project).toMatchObject({ display_name: 'Deleted project', owner_team_id: owner.teamId });
  });
});
