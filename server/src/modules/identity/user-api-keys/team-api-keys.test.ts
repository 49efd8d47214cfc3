import { randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContractResponse } from '@gatehouse/testing/contract';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import { newSignedInUser } from '@gatehouse/testing/users-fixture';
import { generateEndUserKey } from './end-user-key-format.ts';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';

/**
 * Team API keys (docs/protocol/endpoints.md §19): the user key operations with `team_id`, where client access
 * needs `$manage_api_keys` in the team (team_admin has it, team_member does not).
 */
const env = withTestContext({ projectConfig: { 'apiKeys.enabled.user': true, 'apiKeys.enabled.team': true } });
let disabled: TestProject;
beforeAll(async () => {
  disabled = await env.context.createProject({ 'apiKeys.enabled.user': true });
});

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH';
const call = (method: Method, url: string, headers: Headers, payload?: object) =>
  env.context.request({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
const server = (project: TestProject = env.project) => project.headers.server;
const wrongKey = () => ({ ...server(), 'x-stack-secret-server-key': 'ssk_wrong' });
const keyPattern = /^(sk|pk)_[a-z2-7]{45}[0-9a-f]{32}(user|team)[a-z2-7]574ck4u7h[0-9a-f]{8}$/;

const missingPermission = (response: ContractResponse, teamId: string, userId: string | null) =>
  expectError(response, 401, 'TEAM_PERMISSION_REQUIRED', { team_id: teamId, user_id: userId, permission_id: '$manage_api_keys' });

const newUser = (project: TestProject = env.project, write: Record<string, unknown> = {}) =>
  newSignedInUser(env.context, project, { display_name: 'Member', ...write });

/** A team whose creator holds team_admin, plus a plain member (team_member) and an outsider. */
async function newTeam(project: TestProject = env.project) {
  const { teams } = env.context.services;
  const [admin, member, outsider] = [await newUser(project), await newUser(project), await newUser(project)];
  const team = await teams.create(project.project, { display_name: 'Keys team' }, admin.id);
  await teams.addMember(project.project, team.id, member.id);
  return { id: team.id, admin, member, outsider };
}

async function createKey(teamId: string, body: Record<string, unknown> = {}, project: TestProject = env.project) {
  const response = await call('POST', '/team-api-keys', server(project), { team_id: teamId, description: 'a key', ...body });
  expect(response.status, response.text).toBe(200);
  return response.body as { id: string; value: string; [field: string]: unknown };
}

const storedRow = (id: string) =>
  env.context.database.db.selectFrom('end_user_api_key').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const check = (apiKey: string, headers: Headers = server()) => call('POST', '/team-api-keys/check', headers, { api_key: apiKey });
const viewOf = ({ value, ...rest }: { value: string; [field: string]: unknown }) => ({ ...rest, value: { last_four: value.slice(-4) } });

describe('POST /team-api-keys', () => {
  it('creates a key with server access, shown in full once, stored as a digest', async () => {
    const team = await newTeam();
    const created = await call('POST', '/team-api-keys', server(), { team_id: team.id, description: 'deploy', is_public: true });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(String),
      description: 'deploy',
      created_at_millis: expect.any(Number),
      is_public: true,
      type: 'team',
      team_id: team.id,
      value: expect.any(String),
    });
    const { value, id } = created.body;
    expect(value).toMatch(keyPattern);
    expect(value.startsWith('pk_')).toBe(true);
    expect(value.slice(48, 80)).toBe(id.replaceAll('-', ''));
    expect(value.slice(80, 84)).toBe('team');
    expect(value.slice(-8)).toBe(crc32(value.slice(0, -8)).toString(16).padStart(8, '0'));

    const row = await storedRow(id);
    expect(row).toMatchObject({ type: 'team', team_id: team.id, user_id: null, last_four: value.slice(-4) });
    for (const [column, stored] of Object.entries(row)) expect(String(stored), column).not.toContain(value.slice(3, 48));
  });

  it('lets the creator (team_admin) create with client access; a secret key starts with sk_', async () => {
    const team = await newTeam();
    const created = await call('POST', '/team-api-keys', team.admin.client, { team_id: team.id, description: 'by admin' });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({ type: 'team', team_id: team.id, is_public: false });
    expect(created.body.value).toMatch(/^sk_/);
  });

  it('refuses a member without $manage_api_keys, an outsider and an anonymous client: TEAM_PERMISSION_REQUIRED', async () => {
    const team = await newTeam();
    const body = { team_id: team.id, description: 'nope' };
    missingPermission(await call('POST', '/team-api-keys', team.member.client, body), team.id, team.member.id);
    missingPermission(await call('POST', '/team-api-keys', team.outsider.client, body), team.id, team.outsider.id);
    missingPermission(await call('POST', '/team-api-keys', env.project.headers.client, body), team.id, null);
    expect((await call('GET', `/team-api-keys?team_id=${team.id}`, server())).body.items).toEqual([]);

    const granted = await call('POST', `/team-permissions/${team.id}/${team.member.id}/$manage_api_keys`, server());
    expect(granted.status, granted.text).toBe(201);
    expect((await call('POST', '/team-api-keys', team.member.client, body)).status).toBe(200);
  });

  it('answers TEAM_NOT_FOUND for an unknown team, and 400 / 401 / 403 for a bad body, credentials, restricted user', async () => {
    const teamId = randomUUID();
    expectError(await call('POST', '/team-api-keys', server(), { team_id: teamId, description: 'x' }), 404, 'TEAM_NOT_FOUND', {
      team_id: teamId,
    });
    const team = await newTeam();
    expectError(await call('POST', '/team-api-keys', server(), { team_id: team.id }), 400, 'SCHEMA_ERROR');
    expectError(await call('POST', '/team-api-keys', wrongKey(), { team_id: team.id, description: 'x' }), 401, 'INVALID_SECRET_SERVER_KEY');
    const restricted = await newUser(env.project, { restricted_by_admin: true, restricted_by_admin_reason: 'test' });
    const response = await call('POST', '/team-api-keys', restricted.client, { team_id: team.id, description: 'x' });
    expectError(response, 403, 'RESTRICTED_USER_NOT_ALLOWED');
  });
});

describe('GET /team-api-keys and /team-api-keys/{id}', () => {
  it('lists newest first with only the last four, to the server and to the team admin', async () => {
    const [team, other] = [await newTeam(), await newTeam()];
    await createKey(other.id);
    const first = await createKey(team.id, { description: 'first', expires_at_millis: Date.now() + 60_000 });
    const second = await createKey(team.id, { description: 'second' });
    for (const headers of [server(), team.admin.client]) {
      const listed = await call('GET', `/team-api-keys?team_id=${team.id}`, headers);
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body).toEqual({ is_paginated: false, items: [viewOf(second), viewOf(first)] });
    }
    expect(viewOf(second)).not.toHaveProperty('expires_at_millis');
  });

  it('reads one key, and answers API_KEY_NOT_FOUND for another team’s key or an unknown id', async () => {
    const [team, other] = [await newTeam(), await newTeam()];
    const mine = await createKey(team.id);
    const theirs = await createKey(other.id);
    for (const headers of [server(), team.admin.client]) {
      const fetched = await call('GET', `/team-api-keys/${mine.id}?team_id=${team.id}`, headers);
      expect(fetched.status, fetched.text).toBe(200);
      expect(fetched.body).toEqual(viewOf(mine));
    }
    expectError(await call('GET', `/team-api-keys/${theirs.id}?team_id=${team.id}`, server()), 404, 'API_KEY_NOT_FOUND');
    expectError(await call('GET', `/team-api-keys/${theirs.id}?team_id=${team.id}`, team.admin.client), 404, 'API_KEY_NOT_FOUND');
    expectError(await call('GET', `/team-api-keys/${randomUUID()}?team_id=${team.id}`, server()), 404, 'API_KEY_NOT_FOUND');
  });

  it('refuses a plain member (401), a missing team_id (400), bad credentials (401), a restricted user (403)', async () => {
    const team = await newTeam();
    const key = await createKey(team.id);
    missingPermission(await call('GET', `/team-api-keys?team_id=${team.id}`, team.member.client), team.id, team.member.id);
    missingPermission(await call('GET', `/team-api-keys/${key.id}?team_id=${team.id}`, team.member.client), team.id, team.member.id);
    expectError(await call('GET', '/team-api-keys', server()), 400, 'SCHEMA_ERROR');
    expectError(await call('GET', `/team-api-keys/${key.id}`, server()), 400, 'SCHEMA_ERROR');
    expectError(await call('GET', `/team-api-keys?team_id=${team.id}`, wrongKey()), 401, 'INVALID_SECRET_SERVER_KEY');
    expectError(await call('GET', `/team-api-keys/${key.id}?team_id=${team.id}`, wrongKey()), 401, 'INVALID_SECRET_SERVER_KEY');
    const restricted = await newUser(env.project, { restricted_by_admin: true, restricted_by_admin_reason: 'test' });
    expectError(await call('GET', `/team-api-keys?team_id=${team.id}`, restricted.client), 403, 'RESTRICTED_USER_NOT_ALLOWED');
    expectError(await call('GET', `/team-api-keys/${key.id}?team_id=${team.id}`, restricted.client), 403, 'RESTRICTED_USER_NOT_ALLOWED');
  });
});

describe('PATCH /team-api-keys/{id}', () => {
  it('changes the description and revokes once, as the team admin', async () => {
    const team = await newTeam();
    const key = await createKey(team.id, { description: 'old' });
    const url = `/team-api-keys/${key.id}?team_id=${team.id}`;
    const described = await call('PATCH', url, team.admin.client, { description: 'new' });
    expect(described.status, described.text).toBe(200);
    expect(described.body).toEqual({ ...viewOf(key), description: 'new' });
    const revoked = await call('PATCH', url, team.admin.client, { revoked: true });
    expect(revoked.body).toEqual({ ...viewOf(key), description: 'new', manually_revoked_at_millis: expect.any(Number) });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await call('PATCH', url, server(), { revoked: true });
    expect(again.body.manually_revoked_at_millis).toBe(revoked.body.manually_revoked_at_millis);
    expect((await storedRow(key.id)).manually_revoked_at?.getTime()).toBe(revoked.body.manually_revoked_at_millis);
  });

  it('answers API_KEY_NOT_FOUND for unknown or foreign keys, 401 for a plain member, 400, 401, 403', async () => {
    const [team, other] = [await newTeam(), await newTeam()];
    const theirs = await createKey(other.id);
    const key = await createKey(team.id);
    const url = `/team-api-keys/${key.id}?team_id=${team.id}`;
    expectError(
      await call('PATCH', `/team-api-keys/${theirs.id}?team_id=${team.id}`, server(), { revoked: true }),
      404,
      'API_KEY_NOT_FOUND',
    );
    expectError(await call('PATCH', `/team-api-keys/${randomUUID()}?team_id=${team.id}`, server(), {}), 404, 'API_KEY_NOT_FOUND');
    missingPermission(await call('PATCH', url, team.member.client, { revoked: true }), team.id, team.member.id);
    expectError(await call('PATCH', url, server(), { revoked: false }), 400, 'SCHEMA_ERROR');
    expectError(await call('PATCH', url, wrongKey(), { revoked: true }), 401, 'INVALID_SECRET_SERVER_KEY');
    const restricted = await newUser(env.project, { restricted_by_admin: true, restricted_by_admin_reason: 'test' });
    expectError(await call('PATCH', url, restricted.client, { revoked: true }), 403, 'RESTRICTED_USER_NOT_ALLOWED');
    for (const id of [key.id, theirs.id]) expect((await storedRow(id)).manually_revoked_at).toBeNull();
  });
});

describe('POST /team-api-keys/check', () => {
  it('answers the view of a valid key; a user key is WRONG_API_KEY_TYPE', async () => {
    const team = await newTeam();
    const key = await createKey(team.id, { is_public: true });
    for (const headers of [server(), env.project.headers.client, team.member.client]) {
      const checked = await check(key.value, headers);
      expect(checked.status, checked.text).toBe(200);
      expect(checked.body).toEqual(viewOf(key));
    }
    const userKey = await call('POST', '/user-api-keys', server(), { user_id: team.member.id, description: 'user' });
    expect(userKey.status, userKey.text).toBe(200);
    expectError(await check(userKey.body.value), 400, 'WRONG_API_KEY_TYPE', { expected_type: 'team', actual_type: 'user' });
  });

  it('answers API_KEY_REVOKED, API_KEY_EXPIRED, and expired when both apply', async () => {
    const team = await newTeam();
    const revoked = await createKey(team.id);
    await call('PATCH', `/team-api-keys/${revoked.id}?team_id=${team.id}`, server(), { revoked: true });
    expectError(await check(revoked.value), 401, 'API_KEY_REVOKED');
    const expired = await createKey(team.id, { expires_at_millis: Date.now() - 1 });
    expectError(await check(expired.value), 401, 'API_KEY_EXPIRED');
    await call('PATCH', `/team-api-keys/${expired.id}?team_id=${team.id}`, server(), { revoked: true });
    expectError(await check(expired.value), 401, 'API_KEY_EXPIRED');
  });

  it('answers API_KEY_NOT_FOUND for unknown and tampered keys and for a key of another project', async () => {
    const team = await newTeam();
    const key = await createKey(team.id);
    const unknown = generateEndUserKey({ id: randomUUID(), type: 'team', isPublic: false });
    const last = key.value.at(-1) === '0' ? '1' : '0';
    for (const candidate of [unknown, key.value.slice(0, -1) + last, key.value.replace('team', 'user')]) {
      expectError(await check(candidate), 404, 'API_KEY_NOT_FOUND');
    }
    const otherProject = await env.context.createProject({ 'apiKeys.enabled.team': true });
    expectError(await check(key.value, server(otherProject)), 404, 'API_KEY_NOT_FOUND');
  });

  it('refuses a bad body (400), rejected credentials (401) and a restricted user (403)', async () => {
    const team = await newTeam();
    const key = await createKey(team.id);
    expectError(await call('POST', '/team-api-keys/check', server(), {}), 400, 'SCHEMA_ERROR');
    expectError(await check(key.value, wrongKey()), 401, 'INVALID_SECRET_SERVER_KEY');
    const restricted = await newUser(env.project, { restricted_by_admin: true, restricted_by_admin_reason: 'test' });
    expectError(await check(key.value, restricted.client), 403, 'RESTRICTED_USER_NOT_ALLOWED');
  });
});

describe('a project without team API keys (user keys on)', () => {
  it('answers every team key operation with 400 plain text, even to the team admin', async () => {
    const team = await newTeam(disabled);
    const id = randomUUID();
    expectPlain(await call('POST', '/team-api-keys', server(disabled), { team_id: team.id, description: 'x' }), 400);
    expectPlain(await call('POST', '/team-api-keys', team.admin.client, { team_id: team.id, description: 'x' }), 400);
    expectPlain(await call('GET', `/team-api-keys?team_id=${team.id}`, server(disabled)), 400);
    expectPlain(await call('GET', `/team-api-keys/${id}?team_id=${team.id}`, server(disabled)), 400);
    expectPlain(await call('PATCH', `/team-api-keys/${id}?team_id=${team.id}`, team.admin.client, { revoked: true }), 400);
    expectPlain(await check(generateEndUserKey({ id, type: 'team', isPublic: false }), server(disabled)), 400);
    // User keys stay available in the same project.
    expect((await call('POST', '/user-api-keys', server(disabled), { user_id: team.admin.id, description: 'u' })).status).toBe(200);
  });

  it('answers 400 plain text before looking up the team: an unknown team is not TEAM_NOT_FOUND', async () => {
    const response = await call('POST', '/team-api-keys', server(disabled), { team_id: randomUUID(), description: 'x' });
    expectPlain(response, 400);
  });
});
