import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';
import { createScimDirectory } from '@gatehouse/testing/scim-directory';

/** SCIM 2.0 provisioning with requests shaped as Okta's and Entra ID's provisioning clients send them. */
const env = withTestContext();
const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User';
const patchSchema = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const errorSchema = 'urn:ietf:params:scim:api:messages:2.0:Error';

const membersOf = async (teamId: string) =>
  (await env.context.services.teams.listMembers(env.project.project.id, { teamId })).map((member) => member.user_id);

/** A refresh of the session: 200 while it lives, 401 once its refresh token is revoked. */
const refreshStatus = async (refreshToken: string) =>
  (
    await env.context.request({
      method: 'POST',
      url: '/api/v1/auth/sessions/current/refresh',
      headers: { ...env.project.headers.client, 'x-stack-refresh-token': refreshToken },
      payload: {},
    })
  ).status;

const signInAs = async (userId: string) => {
  const user = await env.context.services.users.get(env.project.project.id, userId);
  return env.context.services.signIn.signIn(env.project.project, user);
};

describe('SCIM discovery', () => {
  it('serves ServiceProviderConfig, ResourceTypes and Schemas as application/scim+json', async () => {
    const { scim } = await createScimDirectory(env.context, env.project);
    const config = await scim('GET', '/ServiceProviderConfig');
    expect(config.status).toBe(200);
    expect(config.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(config.json).toMatchObject({ patch: { supported: true }, filter: { supported: true }, bulk: { supported: false } });
    const types = await scim('GET', '/ResourceTypes');
    expect(types.json.Resources.map((type: { id: string }) => type.id)).toEqual(['User', 'Group']);
    const schemas = await scim('GET', '/Schemas');
    expect(schemas.json.Resources.map((schema: { id: string }) => schema.id)).toEqual([
      userSchema,
      'urn:ietf:params:scim:schemas:core:2.0:Group',
    ]);
  });
});

describe("Okta's requests", () => {
  it('creates, finds by userName, deactivates (replace active), reactivates and deletes a user; sessions end at once', async () => {
    const { scim, team } = await createScimDirectory(env.context, env.project);
    // Okta checks whether the user exists first.
    const lookup = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "test.user@okta.local"')}&startIndex=1&count=100`);
    expect(lookup.json).toMatchObject({ totalResults: 0, Resources: [] });
    const created = await scim('POST', '/Users', {
      schemas: [userSchema],
      userName: 'test.user@okta.local',
      name: { givenName: 'Test', familyName: 'User' },
      emails: [{ primary: true, value: 'test.user@okta.local', type: 'work' }],
      displayName: 'Test User',
      locale: 'en-US',
      externalId: '00ujl29u0le5T6Aj10h7',
      groups: [],
      password: '1mz050nq',
      active: true,
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      userName: 'test.user@okta.local',
      active: true,
      externalId: '00ujl29u0le5T6Aj10h7',
      locale: 'en-US',
    });
    expect(created.json.password).toBeUndefined();
    const found = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "TEST.user@okta.local"')}&startIndex=1&count=100`);
    expect(found.json.totalResults).toBe(1);
    const scimId = found.json.Resources[0].id as string;
    // Okta reads the user back by id before each change.
    const readBack = await scim('GET', `/Users/${scimId}`);
    expect(readBack.status).toBe(200);
    expect(readBack.json).toMatchObject({ id: scimId, userName: 'test.user@okta.local', active: true });
    const user = await env.context.services.users.findByAuthEmail(env.project.project.id, 'test.user@okta.local');
    expect(user?.display_name).toBe('Test User');
    expect(await membersOf(team.id)).toEqual([user?.id]);

    const session = await signInAs(user?.id as string);
    expect(await refreshStatus(session.refresh_token)).toBe(200);
    const started = Date.now();
    const deactivated = await scim('PATCH', `/Users/${scimId}`, {
      schemas: [patchSchema],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(deactivated.status).toBe(200);
    expect(deactivated.json.active).toBe(false);
    expect(await refreshStatus(session.refresh_token)).toBe(401);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await membersOf(team.id)).toEqual([]);

    const reactivated = await scim('PATCH', `/Users/${scimId}`, {
      schemas: [patchSchema],
      Operations: [{ op: 'replace', path: 'active', value: true }],
    });
    expect(reactivated.json.active).toBe(true);
    expect(await membersOf(team.id)).toEqual([user?.id]);
    const replaced = await scim('PUT', `/Users/${scimId}`, {
      ...created.json,
      name: { givenName: 'Tess', familyName: 'User' },
      displayName: 'Tess User',
    });
    expect(replaced.json.displayName).toBe('Tess User');

    const second = await signInAs(user?.id as string);
    expect((await scim('DELETE', `/Users/${scimId}`)).status).toBe(204);
    expect(await refreshStatus(second.refresh_token)).toBe(401);
    expect(await membersOf(team.id)).toEqual([]);
    expect((await scim('GET', `/Users/${scimId}`)).status).toBe(404);
    // The project user stays (other teams, other sign-ins); only the directory's hold on it ends.
    expect(await env.context.services.users.find(env.project.project.id, user?.id as string)).toBeDefined();
  });

  it('creates a group, adds and removes members, renames it, deletes it', async () => {
    const { scim } = await createScimDirectory(env.context, env.project);
    const ann = (await scim('POST', '/Users', { schemas: [userSchema], userName: 'ann@okta.example', active: true })).json;
    const group = await scim('POST', '/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Test SCIMv2',
      members: [],
    });
    expect(group.status).toBe(201);
    const id = group.json.id as string;
    const added = await scim('PATCH', `/Groups/${id}`, {
      schemas: [patchSchema],
      Operations: [{ op: 'add', path: 'members', value: [{ value: ann.id, display: 'ann@okta.example' }] }],
    });
    expect(added.json.members.map((member: { value: string }) => member.value)).toEqual([ann.id]);
    const renamed = await scim('PATCH', `/Groups/${id}`, {
      schemas: [patchSchema],
      Operations: [{ op: 'replace', value: { id, displayName: 'Renamed' } }],
    });
    expect(renamed.json.displayName).toBe('Renamed');
    const removed = await scim('PATCH', `/Groups/${id}`, {
      schemas: [patchSchema],
      Operations: [{ op: 'remove', path: `members[value eq "${ann.id}"]` }],
    });
    expect(removed.json.members).toEqual([]);
    const put = await scim('PUT', `/Groups/${id}`, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Put',
      members: [{ value: ann.id }],
    });
    expect(put.json.members).toHaveLength(1);
    const listed = await scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "Put"')}`);
    expect(listed.json.totalResults).toBe(1);
    expect((await scim('GET', `/Groups/${id}`)).json.displayName).toBe('Put');
    expect((await scim('DELETE', `/Groups/${id}`)).status).toBe(204);
    expect((await scim('GET', `/Groups/${id}`)).status).toBe(404);
  });
});

describe("Entra ID's requests", () => {
  it('creates with the enterprise extension, filters, patches with Replace (also path-less) and deactivates with "False"', async () => {
    const { scim, team } = await createScimDirectory(env.context, env.project);
    const userName = 'Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1@testuser.com';
    const created = await scim(
      'POST',
      '/Users',
      {
        schemas: [userSchema, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
        externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
        userName,
        active: true,
        emails: [{ primary: true, type: 'work', value: 'Test_User_fd0ea19b@testuser.com' }],
        meta: { resourceType: 'User' },
        name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
        roles: [],
        'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Sales' },
      },
      { contentType: 'application/json' },
    );
    expect(created.status).toBe(201);
    expect(created.json['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']).toEqual({ department: 'Sales' });
    const found = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`);
    expect(found.json.Resources.map((user: { id: string }) => user.id)).toEqual([created.json.id]);
    const patched = await scim('PATCH', `/Users/${created.json.id}`, {
      schemas: [patchSchema],
      Operations: [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@testuser.com' },
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
        { op: 'Add', value: { displayName: 'Updated Name' } },
      ],
    });
    expect(patched.status).toBe(200);
    expect(patched.json.emails[0].value).toBe('updatedEmail@testuser.com');
    expect(patched.json.name.familyName).toBe('updatedFamilyName');
    expect(patched.json.displayName).toBe('Updated Name');
    expect(await membersOf(team.id)).toHaveLength(1);
    const disabled = await scim('PATCH', `/Users/${created.json.id}`, {
      schemas: [patchSchema],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(disabled.json.active).toBe(false);
    expect(await membersOf(team.id)).toEqual([]);
  });

  it('adds and removes group members with Add / Remove value arrays', async () => {
    const { scim } = await createScimDirectory(env.context, env.project);
    const bob = (await scim('POST', '/Users', { schemas: [userSchema], userName: 'bob@entra.example', active: true })).json;
    const group = (
      await scim('POST', '/Groups', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        displayName: 'Group1DisplayName',
        externalId: 'e1',
      })
    ).json;
    const add = await scim('PATCH', `/Groups/${group.id}`, {
      schemas: [patchSchema],
      Operations: [{ op: 'Add', path: 'members', value: [{ value: bob.id }] }],
    });
    expect(add.json.members).toHaveLength(1);
    const remove = await scim('PATCH', `/Groups/${group.id}`, {
      schemas: [patchSchema],
      Operations: [{ op: 'Remove', path: 'members', value: [{ value: bob.id }] }],
    });
    expect(remove.json.members).toEqual([]);
  });
});

describe('SCIM errors: SCIM shape, 4xx, never a 500', () => {
  it('refuses a missing token, another directory’s token, and malformed input', async () => {
    const a = await createScimDirectory(env.context, env.project);
    const other = await env.context.createProject();
    const b = await createScimDirectory(env.context, other);
    const expectScimError = (
      response: { status: number; headers: Record<string, unknown>; json: unknown },
      status: number,
      scimType?: string,
    ) => {
      expect(response.status).toBe(status);
      expect(String(response.headers['content-type'])).toMatch(/^application\/scim\+json/);
      expect(response.json).toMatchObject({ schemas: [errorSchema], status: String(status), ...(scimType ? { scimType } : {}) });
    };
    expectScimError(await a.scim('GET', '/Users', undefined, { token: '' }), 401);
    // B's token (another team, another project) on A's directory, and A's token on B's.
    expectScimError(await a.scim('GET', '/Users', undefined, { token: b.directory.token }), 401);
    expectScimError(await b.scim('GET', '/Users', undefined, { token: a.directory.token }), 401);
    expectScimError(await a.scim('POST', '/Users', '{"userName": ', {}), 400, 'invalidSyntax');
    expectScimError(await a.scim('POST', '/Users', { schemas: [userSchema] }), 400, 'invalidValue');
    expectScimError(await a.scim('POST', '/Users', [1, 2]), 400);
    expectScimError(await a.scim('GET', '/Users?filter=userName%20eq'), 400, 'invalidFilter');
    expectScimError(await a.scim('GET', '/Users?count=abc'), 400);
    expectScimError(await a.scim('GET', '/Users/not-a-uuid'), 400);
    const ann = (await a.scim('POST', '/Users', { schemas: [userSchema], userName: 'dup@example.com' })).json;
    expectScimError(await a.scim('POST', '/Users', { schemas: [userSchema], userName: 'DUP@example.com' }), 409, 'uniqueness');
    expectScimError(await a.scim('PATCH', `/Users/${ann.id}`, { Operations: 'nope' }), 400, 'invalidSyntax');
    expectScimError(await a.scim('PATCH', `/Users/${ann.id}`, { Operations: [{ op: 'explode', path: 'active' }] }), 400);
    expectScimError(
      await a.scim('PATCH', `/Users/${ann.id}`, { Operations: [{ op: 'replace', path: 'active', value: 'maybe' }] }),
      400,
      'invalidValue',
    );
    expectScimError(await a.scim('PUT', `/Users/${ann.id}`, { schemas: [userSchema] }), 400, 'invalidValue');
    // A's user is not B's: its id is unknown in B's directory.
    expectScimError(await b.scim('GET', `/Users/${ann.id}`), 404);
    expectScimError(await b.scim('PATCH', `/Users/${ann.id}`, { Operations: [{ op: 'replace', value: { active: false } }] }), 404);
    expectScimError(await b.scim('PUT', `/Users/${ann.id}`, { userName: 'x@example.com' }), 404);
    expectScimError(await b.scim('DELETE', `/Users/${ann.id}`), 404);
    const group = (await a.scim('POST', '/Groups', { displayName: 'Admins' })).json;
    expectScimError(await a.scim('POST', '/Groups', { displayName: 'admins' }), 409, 'uniqueness');
    expectScimError(
      await a.scim('POST', '/Groups', { displayName: 'Ghosts', members: [{ value: crypto.randomUUID() }] }),
      400,
      'invalidValue',
    );
    expectScimError(await b.scim('PUT', `/Groups/${group.id}`, { displayName: 'x' }), 404);
    expectScimError(await b.scim('GET', `/Groups/${group.id}`), 404);
    expectScimError(await b.scim('PATCH', `/Groups/${group.id}`, { Operations: [{ op: 'replace', value: { displayName: 'x' } }] }), 404);
    expectScimError(await b.scim('DELETE', `/Groups/${group.id}`), 404);
    expectScimError(await a.scim('GET', '/Groups?filter=%28%28'), 400, 'invalidFilter');
    for (const path of ['/ServiceProviderConfig', '/ResourceTypes', '/Schemas', '/Groups', '/Users'])
      expectScimError(await a.scim('GET', path, undefined, { token: 'scim_wrong' }), 401);
  });

  it('stops the token of a deleted directory at once', async () => {
    const { scim, team, directory } = await createScimDirectory(env.context, env.project);
    const listed = await env.context.request({
      method: 'GET',
      url: `/api/v1/teams/${team.id}/scim-directories`,
      headers: env.project.headers.server,
    });
    expect(listed.body.items).toEqual([expect.objectContaining({ id: directory.id, scim_base_url: directory.scim_base_url })]);
    expect(listed.text).not.toContain(directory.token);
    const removed = await env.context.request({
      method: 'DELETE',
      url: `/api/v1/teams/${team.id}/scim-directories/${directory.id}`,
      headers: env.project.headers.admin,
      payload: {},
    });
    expect(removed.status).toBe(200);
    expect((await scim('GET', '/Users')).status).toBe(401);
    const again = await env.context.request({
      method: 'DELETE',
      url: `/api/v1/teams/${team.id}/scim-directories/${directory.id}`,
      headers: env.project.headers.admin,
      payload: {},
    });
    expect(again.body.code).toBe('SCIM_DIRECTORY_NOT_FOUND');
    const unknownTeam = crypto.randomUUID();
    for (const method of ['GET', 'POST'] as const) {
      const response = await env.context.request({
        method,
        url: `/api/v1/teams/${unknownTeam}/scim-directories`,
        headers: env.project.headers.server,
        ...(method === 'POST' ? { payload: {} } : {}),
      });
      expect(response.body.code).toBe('TEAM_NOT_FOUND');
    }
  });
});
