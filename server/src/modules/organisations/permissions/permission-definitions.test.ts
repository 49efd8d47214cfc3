import { describe, expect, it } from 'vitest';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import { expectError } from '@gatehouse/testing/expect-response';

/**
 * Team and project permission definitions (docs/protocol/endpoints.md §16, docs/protocol/entities.md Permissions): admin-only
 * CRUD, the system team permissions, containment that must stay acyclic, and renames and deletes
 * that carry along (or drop) grants and containments.
 */
const env = withTestContext();

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
type Scope = 'team' | 'project';
const call = (method: Method, url: string, headers: Headers, payload?: object) =>
  env.context.request({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
const systemIds = ['$update_team', '$delete_team', '$read_members', '$remove_members', '$invite_members', '$manage_api_keys'];

/** The definition endpoints of one scope in a fresh project (so listings are exact). */
async function scopeApi(scope: Scope) {
  const project = await env.context.createProject();
  const admin = project.headers.admin;
  const base = `/${scope}-permission-definitions`;
  const api = {
    project,
    list: async () => (await call('GET', base, admin)).body.items as Array<{ id: string; contained_permission_ids: string[] }>,
    find: async (id: string) => (await api.list()).find((definition) => definition.id === id),
    create: (body: object) => call('POST', base, admin, body),
    update: (id: string, body: object) => call('PATCH', `${base}/${id}`, admin, body),
    remove: (id: string) => call('DELETE', `${base}/${id}`, admin),
  };
  return api;
}

/** A user of `project` holding `permissionId` directly: in a team for the team scope. */
async function holder(project: TestProject, scope: Scope, permissionId: string) {
  const { users, teams } = env.context.services;
  const user = await users.create(project.project, {}, 'server');
  const server = project.headers.server;
  if (scope === 'project') {
    expect((await call('POST', `/project-permissions/${user.id}/${permissionId}`, server, {})).status).toBe(201);
    return { direct: async () => (await call('GET', `/project-permissions?user_id=${user.id}&recursive=false`, server)).body.items };
  }
  const team = await teams.create(project.project, { display_name: 'Holders' }, user.id);
  expect((await call('POST', `/team-permissions/${team.id}/${user.id}/${permissionId}`, server, {})).status).toBe(201);
  return {
    direct: async () => (await call('GET', `/team-permissions?team_id=${team.id}&user_id=${user.id}&recursive=false`, server)).body.items,
  };
}

describe('GET /team-permission-definitions', () => {
  it('lists the system permissions and the two default team roles', async () => {
    const api = await scopeApi('team');
    const listed = await call('GET', '/team-permission-definitions', api.project.headers.admin);
    expect(listed.status).toBe(200);
    expect(listed.body.is_paginated).toBe(false);
    const byId = Object.fromEntries(listed.body.items.map((definition: { id: string }) => [definition.id, definition]));
    expect(Object.keys(byId).sort()).toEqual([...systemIds, 'team_admin', 'team_member'].sort());
    for (const id of systemIds) expect(byId[id].contained_permission_ids).toEqual([]);
    expect([...byId.team_admin.contained_permission_ids].sort()).toEqual([...systemIds].sort());
    expect(byId.team_member.contained_permission_ids).toEqual(['$read_members']);
  });

  it('answers system ids as unknown to change or delete', async () => {
    const api = await scopeApi('team');
    expectError(await api.update('$read_members', { description: 'x' }), 404, 'PERMISSION_NOT_FOUND', { permission_id: '$read_members' });
    expectError(await api.remove('$delete_team'), 404, 'PERMISSION_NOT_FOUND', { permission_id: '$delete_team' });
  });
});

describe.each(['team', 'project'] as const)('%s permission definitions', (scope) => {
  const other: Scope = scope === 'team' ? 'project' : 'team';

  it('create, change and delete with admin access', async () => {
    const api = await scopeApi(scope);
    const before = await api.list();
    const leaf = await api.create({ id: 'docs:read' });
    expect(leaf.status).toBe(201);
    expect(leaf.body).toEqual({ id: 'docs:read', contained_permission_ids: [] });
    const created = await api.create({ id: 'docs_admin', description: 'Everything about docs', contained_permission_ids: ['docs:read'] });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: 'docs_admin', description: 'Everything about docs', contained_permission_ids: ['docs:read'] });
    expect(await api.find('docs_admin')).toEqual(created.body);

    const changed = await api.update('docs_admin', { description: 'Docs', contained_permission_ids: [] });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ id: 'docs_admin', description: 'Docs', contained_permission_ids: [] });
    const deleted = await api.remove('docs_admin');
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
    expect(await api.find('docs_admin')).toBeUndefined();
    expectError(await api.remove('docs_admin'), 404, 'PERMISSION_NOT_FOUND', { permission_id: 'docs_admin' });
    expectError(await api.update('docs_admin', { description: 'gone' }), 404, 'PERMISSION_NOT_FOUND', { permission_id: 'docs_admin' });
    expect((await api.list()).map((definition) => definition.id).sort()).toEqual([...before.map((d) => d.id), 'docs:read'].sort());
  });

  it('refuse taken ids (in either scope) with PERMISSION_ID_ALREADY_EXISTS', async () => {
    const api = await scopeApi(scope);
    const otherApi = { create: (body: object) => call('POST', `/${other}-permission-definitions`, api.project.headers.admin, body) };
    await api.create({ id: 'taken' });
    await api.create({ id: 'renamed' });
    expectError(await api.create({ id: 'taken' }), 400, 'PERMISSION_ID_ALREADY_EXISTS', { permission_id: 'taken' });
    expectError(await otherApi.create({ id: 'taken' }), 400, 'PERMISSION_ID_ALREADY_EXISTS', { permission_id: 'taken' });
    expectError(await api.update('renamed', { id: 'taken' }), 400, 'PERMISSION_ID_ALREADY_EXISTS', { permission_id: 'taken' });
  });

  it('refuse unknown contained ids and ids of the other scope with CONTAINED_PERMISSION_NOT_FOUND', async () => {
    const api = await scopeApi(scope);
    const foreign = `${other}_only`;
    expect((await call('POST', `/${other}-permission-definitions`, api.project.headers.admin, { id: foreign })).status).toBe(201);
    await api.create({ id: 'holder' });
    const unknowns = ['does_not_exist', foreign, ...(scope === 'project' ? ['$read_members'] : [])];
    for (const contained of unknowns) {
      const create = await api.create({ id: 'with_unknown', contained_permission_ids: [contained] });
      expectError(create, 400, 'CONTAINED_PERMISSION_NOT_FOUND', { permission_id: contained });
      const update = await api.update('holder', { contained_permission_ids: [contained] });
      expectError(update, 400, 'CONTAINED_PERMISSION_NOT_FOUND', { permission_id: contained });
    }
    expect(await api.find('with_unknown')).toBeUndefined();
    expect((await api.find('holder'))?.contained_permission_ids).toEqual([]);
  });

  it('refuse ids outside ^[a-z0-9_:]+$ (a `$` id included) with SCHEMA_ERROR', async () => {
    const api = await scopeApi(scope);
    await api.create({ id: 'valid' });
    for (const id of ['$custom', 'Upper', 'has space', 'dash-ed', '']) {
      const response = await api.create({ id });
      expectError(response, 400, 'SCHEMA_ERROR');
      expect(response.body.details.message).toEqual(expect.any(String));
      expectError(await api.update('valid', { id }), 400, 'SCHEMA_ERROR');
    }
  });

  it('keep containment acyclic: self, two and three definitions (PERMISSION_CONTAINMENT_CYCLE)', async () => {
    const api = await scopeApi(scope);
    await api.create({ id: 'cycle_c' });
    await api.create({ id: 'cycle_b', contained_permission_ids: ['cycle_c'] });
    await api.create({ id: 'cycle_a', contained_permission_ids: ['cycle_b'] });
    const self = await api.update('cycle_a', { contained_permission_ids: ['cycle_a'] });
    expectError(self, 400, 'PERMISSION_CONTAINMENT_CYCLE');
    expect(self.body.details).toEqual({ permission_id: 'cycle_a' });
    expectError(await api.update('cycle_b', { contained_permission_ids: ['cycle_c', 'cycle_a'] }), 400, 'PERMISSION_CONTAINMENT_CYCLE');
    expectError(await api.update('cycle_c', { contained_permission_ids: ['cycle_a'] }), 400, 'PERMISSION_CONTAINMENT_CYCLE');
    expect((await api.find('cycle_a'))?.contained_permission_ids).toEqual(['cycle_b']);
    expect((await api.find('cycle_b'))?.contained_permission_ids).toEqual(['cycle_c']);
    expect((await api.find('cycle_c'))?.contained_permission_ids).toEqual([]);
    // A rename in the same request as a refused containment is rolled back with it.
    const renamed = await api.update('cycle_c', { id: 'cycle_d', contained_permission_ids: ['cycle_a'] });
    expectError(renamed, 400, 'PERMISSION_CONTAINMENT_CYCLE');
    expect(renamed.body.details).toEqual({ permission_id: 'cycle_d' });
    expect(await api.find('cycle_d')).toBeUndefined();
    expect((await api.find('cycle_b'))?.contained_permission_ids).toEqual(['cycle_c']);
    // A diamond is no cycle.
    const diamond = await api.update('cycle_a', { contained_permission_ids: ['cycle_b', 'cycle_c'] });
    expect(diamond.body.contained_permission_ids).toEqual(['cycle_b', 'cycle_c']);
  });

  it('rename carries grants and containments along', async () => {
    const api = await scopeApi(scope);
    await api.create({ id: 'old_name' });
    await api.create({ id: 'container', contained_permission_ids: ['old_name'] });
    const user = await holder(api.project, scope, 'old_name');
    const renamed = await api.update('old_name', { id: 'new_name', description: 'renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ id: 'new_name', description: 'renamed', contained_permission_ids: [] });
    expect(await api.find('old_name')).toBeUndefined();
    expect((await api.find('container'))?.contained_permission_ids).toEqual(['new_name']);
    expect((await user.direct()).map((grant: { id: string }) => grant.id)).toContain('new_name');
    expect((await user.direct()).map((grant: { id: string }) => grant.id)).not.toContain('old_name');
    expectError(await api.update('old_name', { description: 'x' }), 404, 'PERMISSION_NOT_FOUND', { permission_id: 'old_name' });
  });

  it('delete removes the grants and drops the definition from its containers', async () => {
    const api = await scopeApi(scope);
    await api.create({ id: 'doomed' });
    await api.create({ id: 'kept' });
    await api.create({ id: 'parent', contained_permission_ids: ['doomed', 'kept'] });
    const user = await holder(api.project, scope, 'doomed');
    expect((await api.remove('doomed')).body).toEqual({ success: true });
    expect((await api.find('parent'))?.contained_permission_ids).toEqual(['kept']);
    expect((await user.direct()).map((grant: { id: string }) => grant.id)).not.toContain('doomed');
    // The id is free again.
    expect((await api.create({ id: 'doomed' })).status).toBe(201);
    expect((await user.direct()).map((grant: { id: string }) => grant.id)).not.toContain('doomed');
  });

  it('are for admin access only', async () => {
    const api = await scopeApi(scope);
    await api.create({ id: 'admins_only' });
    const base = `/${scope}-permission-definitions`;
    for (const type of ['client', 'server'] as const) {
      const headers = api.project.headers[type];
      for (const [method, url, body] of [
        ['GET', base],
        ['POST', base, { id: 'sneaky' }],
        ['PATCH', `${base}/admins_only`, { description: 'sneaky' }],
        ['DELETE', `${base}/admins_only`],
      ] as Array<[Method, string, object?]>) {
        const response = await call(method, url, headers, body);
        expectError(response, 401, 'INSUFFICIENT_ACCESS_TYPE', { actual_access_type: type, allowed_access_types: ['admin'] });
      }
    }
    expect(await api.find('sneaky')).toBeUndefined();
    expect(await api.find('admins_only')).toEqual({ id: 'admins_only', contained_permission_ids: [] });
  });
});

describe('the default team roles stay usable', () => {
  it('after team_member is deleted, adding members still works', async () => {
    const api = await scopeApi('team');
    expect((await api.remove('team_member')).status).toBe(200);
    const { users, teams } = env.context.services;
    const team = await teams.create(api.project.project, { display_name: 'After' });
    const user = await users.create(api.project.project, {}, 'server');
    const added = await call('POST', `/team-memberships/${team.id}/${user.id}`, api.project.headers.server, {});
    expect(added.status, added.text).toBe(201);
  });

  it('after team_admin is renamed, a team creator holds the renamed role', async () => {
    const api = await scopeApi('team');
    expect((await api.update('team_admin', { id: 'owner' })).status).toBe(200);
    const user = await env.context.services.users.create(api.project.project, {}, 'server');
    const created = await call('POST', '/teams', api.project.headers.server, { display_name: 'Owned', creator_user_id: user.id });
    expect(created.status, created.text).toBe(201);
    const grants = await call(
      'GET',
      `/team-permissions?team_id=${created.body.id}&user_id=${user.id}&recursive=false`,
      api.project.headers.server,
    );
    expect(grants.body.items).toEqual([{ id: 'owner', team_id: created.body.id, user_id: user.id }]);
  });
});
