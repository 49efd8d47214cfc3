import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContractResponse } from '@gatehouse/testing/contract';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import { newSignedInUser } from '@gatehouse/testing/users-fixture';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';

/**
 * Teams (docs/protocol/endpoints.md §12, docs/protocol/entities.md Team): create, list, read, change and delete, the client
 * and server views, and the creator's membership with the team-creator default permissions.
 */
const env = withTestContext();
let clientTeams: TestProject;
beforeAll(async () => {
  clientTeams = await env.context.createProject({ 'teams.allowClientTeamCreation': true });
});

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, headers: Headers, payload?: object) =>
  env.context.request({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
const server = (project: TestProject = env.project) => project.headers.server;
const serverOnly = ['server_metadata', 'created_at_millis'];
const listed = (response: ContractResponse): Array<{ id: string }> => response.body.items;

/** A user with a session, and client headers acting as it. */
const newUser = (project: TestProject = env.project, displayName = 'Member') =>
  newSignedInUser(env.context, project, { display_name: displayName });

const newTeam = (creatorId?: string, project: TestProject = env.project, name = 'Team') =>
  env.context.services.teams.create(project.project, { display_name: name }, creatorId);

/** Direct team grants of a member (server view). */
const directGrants = async (teamId: string, userId: string, project: TestProject = env.project) =>
  (await call('GET', `/team-permissions?team_id=${teamId}&user_id=${userId}&recursive=false`, server(project))).body.items;

describe('POST /teams with server access', () => {
  it('creates a team whose creator becomes a member holding team_admin', async () => {
    const creator = await newUser();
    const created = await call('POST', '/teams', server(), {
      display_name: 'Acme',
      profile_image_url: 'https://img.example.com/acme.png',
      client_metadata: { theme: 'dark' },
      client_read_only_metadata: { plan: 'pro' },
      server_metadata: { internal: 7 },
      creator_user_id: creator.id,
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      display_name: 'Acme',
      profile_image_url: 'https://img.example.com/acme.png',
      client_metadata: { theme: 'dark' },
      client_read_only_metadata: { plan: 'pro' },
      server_metadata: { internal: 7 },
      created_at_millis: expect.any(Number),
    });
    expect(Math.abs(created.body.created_at_millis - Date.now())).toBeLessThan(60_000);
    expect(await directGrants(created.body.id, creator.id)).toEqual([{ id: 'team_admin', team_id: created.body.id, user_id: creator.id }]);
    const fetched = await call('GET', `/teams/${created.body.id}`, server());
    expect(fetched.body).toEqual(created.body);
  });

  it('creates a team without members when no creator is named; `me` names the token user', async () => {
    const lonely = await call('POST', '/teams', server(), { display_name: 'No one' });
    expect(lonely.status).toBe(201);
    expect(lonely.body).toMatchObject({ client_metadata: null, client_read_only_metadata: null, server_metadata: null });
    expect((await call('GET', `/team-member-profiles?team_id=${lonely.body.id}`, server())).body.items).toEqual([]);

    const me = await newUser();
    const mine = await call(
      'POST',
      '/teams',
      { ...server(), 'x-stack-access-token': me.token },
      { display_name: 'Mine', creator_user_id: 'me' },
    );
    expect(mine.status).toBe(201);
    expect(await directGrants(mine.body.id, me.id)).toEqual([{ id: 'team_admin', team_id: mine.body.id, user_id: me.id }]);
  });

  it('answers CANNOT_GET_OWN_USER_WITHOUT_USER for `me` without a token and USER_NOT_FOUND for an unknown creator', async () => {
    const project = await env.context.createProject();
    const withoutUser = await call('POST', '/teams', server(project), { display_name: 'X', creator_user_id: 'me' });
    expectError(withoutUser, 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    expectError(await call('POST', '/teams', server(project), { display_name: 'X', creator_user_id: randomUUID() }), 404, 'USER_NOT_FOUND');
    // Neither failure leaves a team behind.
    expect((await call('GET', '/teams', server(project))).body.items).toEqual([]);
  });
});

describe('POST /teams with client access', () => {
  it('is refused with 403 plain text when the project does not allow client team creation', async () => {
    const user = await newUser();
    expectPlain(await call('POST', '/teams', user.client, { display_name: 'Nope' }), 403);
    expect((await call('GET', '/teams', user.client)).body.items).toEqual([]);
  });

  it('needs a signed-in user: USER_AUTHENTICATION_REQUIRED', async () => {
    expectError(await call('POST', '/teams', clientTeams.headers.client, { display_name: 'Anon' }), 401, 'USER_AUTHENTICATION_REQUIRED');
  });

  it('creates the team as the client view, with the caller as team_admin member', async () => {
    const user = await newUser(clientTeams);
    for (const creator of [undefined, 'me', user.id.toUpperCase()]) {
      const created = await call('POST', '/teams', user.client, {
        display_name: 'Client made',
        client_metadata: { a: 1 },
        ...(creator ? { creator_user_id: creator } : {}),
      });
      expect(created.status, created.text).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        display_name: 'Client made',
        profile_image_url: null,
        client_metadata: { a: 1 },
        client_read_only_metadata: null,
      });
      expect(await directGrants(created.body.id, user.id, clientTeams)).toEqual([
        { id: 'team_admin', team_id: created.body.id, user_id: user.id },
      ]);
    }
  });

  it('refuses another creator (403 plain text) and the server-only metadata (SCHEMA_ERROR)', async () => {
    const user = await newUser(clientTeams);
    const other = await newUser(clientTeams);
    expectPlain(await call('POST', '/teams', user.client, { display_name: 'Theirs', creator_user_id: other.id }), 403);
    for (const field of ['client_read_only_metadata', 'server_metadata']) {
      const response = await call('POST', '/teams', user.client, { display_name: 'Meta', [field]: { x: 1 } });
      expectError(response, 400, 'SCHEMA_ERROR');
      expect(response.body.details.message).toContain(field);
    }
    expect((await call('GET', '/teams', user.client)).body.items).toEqual([]);
  });
});

describe('GET /teams', () => {
  it('lists only the client user’s own teams, oldest first, all of them without a limit', async () => {
    const user = await newUser();
    const other = await newUser();
    const own = [];
    for (let index = 0; index < 30; index += 1) own.push(await newTeam(user.id, env.project, `Own ${index}`));
    const joined = await newTeam(other.id, env.project, 'Joined later');
    await env.context.services.teams.addMember(env.project.project, joined.id, user.id);
    await newTeam(other.id, env.project, 'Not mine');

    for (const query of ['', '?user_id=me', `?user_id=${user.id}`]) {
      const response = await call('GET', `/teams${query}`, user.client);
      expect(response.status).toBe(200);
      expect(response.body.is_paginated).toBe(false);
      expect(listed(response).map((team) => team.id)).toEqual([...own, joined].map((team) => team.id));
      for (const team of listed(response)) for (const field of serverOnly) expect(team).not.toHaveProperty(field);
    }
    expect(listed(await call('GET', '/teams', other.client))).toHaveLength(2);
  });

  it('refuses another user (403 plain text) and `me` without a token (CANNOT_GET_OWN_USER_WITHOUT_USER)', async () => {
    const user = await newUser();
    const other = await newUser();
    expectPlain(await call('GET', `/teams?user_id=${other.id}`, user.client), 403);
    expectError(await call('GET', '/teams?user_id=me', env.project.headers.client), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    expectError(await call('GET', '/teams', env.project.headers.client), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    expectError(await call('GET', '/teams?user_id=me', server()), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
  });

  it('lists every team of the project, or one user’s, with server access', async () => {
    const project = await env.context.createProject();
    const user = await newUser(project);
    const first = await newTeam(user.id, project, 'First');
    const second = await newTeam(undefined, project, 'Second');
    const all = await call('GET', '/teams', server(project));
    expect(all.body.items.map((team: { id: string }) => team.id)).toEqual([first.id, second.id]);
    expect(all.body.items[0]).toEqual({
      id: first.id,
      display_name: 'First',
      profile_image_url: null,
      client_metadata: null,
      client_read_only_metadata: null,
      server_metadata: null,
      created_at_millis: first.created_at.getTime(),
    });
    expect(listed(await call('GET', `/teams?user_id=${user.id}`, server(project))).map((team) => team.id)).toEqual([first.id]);
  });
});

describe('GET /teams/{team_id}', () => {
  it('shows members the client view and server access the server view', async () => {
    const user = await newUser();
    const team = await newTeam(user.id, env.project, 'Visible');
    const asClient = await call('GET', `/teams/${team.id}`, user.client);
    expect(asClient.status).toBe(200);
    expect(asClient.body).toEqual({
      id: team.id,
      display_name: 'Visible',
      profile_image_url: null,
      client_metadata: null,
      client_read_only_metadata: null,
    });
    const asServer = await call('GET', `/teams/${team.id}`, server());
    expect(asServer.status).toBe(200);
    expect(asServer.body).toMatchObject({ ...asClient.body, server_metadata: null, created_at_millis: team.created_at.getTime() });
  });

  it('answers TEAM_NOT_FOUND to non-members, clients without a user and unknown ids', async () => {
    const team = await newTeam((await newUser()).id);
    const outsider = await newUser();
    expectError(await call('GET', `/teams/${team.id}`, outsider.client), 404, 'TEAM_NOT_FOUND', { team_id: team.id });
    expectError(await call('GET', `/teams/${team.id}`, env.project.headers.client), 404, 'TEAM_NOT_FOUND', { team_id: team.id });
    const unknown = randomUUID();
    expectError(await call('GET', `/teams/${unknown}`, server()), 404, 'TEAM_NOT_FOUND', { team_id: unknown });
  });
});

describe('teams of another project', () => {
  it('are TEAM_NOT_FOUND to read, change or delete', async () => {
    const team = await newTeam();
    const stranger = await env.context.createProject();
    for (const [method, payload] of [['GET'], ['PATCH', { display_name: 'X' }], ['DELETE']] as Array<[Method, object?]>) {
      expectError(await call(method, `/teams/${team.id}`, server(stranger), payload), 404, 'TEAM_NOT_FOUND', { team_id: team.id });
    }
    expect((await call('GET', `/teams/${team.id}`, server())).body.display_name).toBe('Team');
  });
});

describe('PATCH /teams/{team_id}', () => {
  it('changes every field with server access', async () => {
    const team = await newTeam();
    const changes = {
      display_name: 'Renamed',
      profile_image_url: 'https://img.example.com/new.png',
      client_metadata: { a: [1, 2] },
      client_read_only_metadata: 'read only',
      server_metadata: { secret: true },
    };
    const updated = await call('PATCH', `/teams/${team.id}`, server(), changes);
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ id: team.id, ...changes, created_at_millis: team.created_at.getTime() });
    const cleared = await call('PATCH', `/teams/${team.id}`, server(), { profile_image_url: null });
    expect(cleared.body).toEqual({ ...updated.body, profile_image_url: null });
  });

  it('lets a client holding $update_team change the client fields, not the server-only metadata', async () => {
    const user = await newUser();
    const team = await newTeam(user.id);
    const updated = await call('PATCH', `/teams/${team.id}`, user.client, { display_name: 'By client', client_metadata: { c: 1 } });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({
      id: team.id,
      display_name: 'By client',
      profile_image_url: null,
      client_metadata: { c: 1 },
      client_read_only_metadata: null,
    });
    for (const field of ['client_read_only_metadata', 'server_metadata']) {
      const refused = await call('PATCH', `/teams/${team.id}`, user.client, { [field]: 1 });
      expectError(refused, 400, 'SCHEMA_ERROR');
      expect(refused.body.details.message).toContain(field);
    }
    expect((await call('GET', `/teams/${team.id}`, server())).body).toMatchObject({
      client_read_only_metadata: null,
      server_metadata: null,
    });
  });

  it('answers TEAM_NOT_FOUND for an unknown team', async () => {
    const unknown = randomUUID();
    expectError(await call('PATCH', `/teams/${unknown}`, server(), { display_name: 'X' }), 404, 'TEAM_NOT_FOUND', { team_id: unknown });
    const user = await newUser();
    expectError(await call('PATCH', `/teams/${unknown}`, user.client, { display_name: 'X' }), 404, 'TEAM_NOT_FOUND', { team_id: unknown });
  });
});

describe('DELETE /teams/{team_id}', () => {
  it('deletes with server access; members whose selected team it was have none afterwards', async () => {
    const user = await newUser();
    const team = await newTeam(user.id);
    expect((await call('PATCH', `/users/${user.id}`, server(), { selected_team_id: team.id })).body.selected_team_id).toBe(team.id);
    const deleted = await call('DELETE', `/teams/${team.id}`, server());
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
    expectError(await call('GET', `/teams/${team.id}`, server()), 404, 'TEAM_NOT_FOUND');
    expect((await call('GET', `/users/${user.id}`, server())).body).toMatchObject({ selected_team_id: null, selected_team: null });
    expect((await call('GET', '/teams', user.client)).body.items).toEqual([]);
    expectError(await call('DELETE', `/teams/${team.id}`, server()), 404, 'TEAM_NOT_FOUND', { team_id: team.id });
  });

  it('lets a client holding $delete_team delete its team', async () => {
    const user = await newUser();
    const team = await newTeam(user.id);
    expect((await call('DELETE', `/teams/${team.id}`, user.client)).body).toEqual({ success: true });
    expectError(await call('GET', `/teams/${team.id}`, server()), 404, 'TEAM_NOT_FOUND');
    expectError(await call('DELETE', `/teams/${team.id}`, user.client), 404, 'TEAM_NOT_FOUND', { team_id: team.id });
  });
});
