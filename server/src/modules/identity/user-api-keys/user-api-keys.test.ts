import { randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import { newSignedInUser } from '@gatehouse/testing/users-fixture';
import { generateEndUserKey } from './end-user-key-format.ts';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';

/**
 * User API keys (docs/protocol/endpoints.md §19, docs/protocol/entities.md "User / team API keys"): create with the full value
 * once, list/read with the last four only, describe or revoke, and check a presented key.
 */
const env = withTestContext({ projectConfig: { 'apiKeys.enabled.user': true, 'apiKeys.enabled.team': true } });
let disabled: TestProject;
beforeAll(async () => {
  disabled = await env.context.createProject();
});

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH';
const call = (method: Method, url: string, headers: Headers, payload?: object) =>
  env.context.request({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
const server = (project: TestProject = env.project) => project.headers.server;
/** Server headers with the secret key of another project. */
const wrongKey = () => ({ ...server(), 'x-stack-secret-server-key': disabled.keys.secret_server_key });

/** A user with a session, and client headers acting as it. */
const newUser = (project: TestProject = env.project, write: Record<string, unknown> = {}) =>
  newSignedInUser(env.context, project, { display_name: 'Key owner', ...write });

type CreatedKey = { id: string; value: string; expires_at_millis?: number; [field: string]: unknown };

/** A key created with server access; returns the created body (with the full `value`). */
async function createKey(userId: string, body: Record<string, unknown> = {}, project: TestProject = env.project) {
  const response = await call('POST', '/user-api-keys', server(project), { user_id: userId, description: 'a key', ...body });
  expect(response.status, response.text).toBe(200);
  return response.body as CreatedKey;
}

/** The format of docs/protocol/entities.md: prefix, the id, the type, and a CRC32 of all before the last eight. */
function expectKeyString(value: string, id: string, type: 'user' | 'team', isPublic: boolean) {
  expect(value).toMatch(/^(sk|pk)_[a-z2-7]{45}[0-9a-f]{32}(user|team)[a-z2-7]574ck4u7h[0-9a-f]{8}$/);
  expect(value.slice(0, 3)).toBe(isPublic ? 'pk_' : 'sk_');
  expect(value.slice(48, 80)).toBe(id.replaceAll('-', ''));
  expect(value.slice(80, 84)).toBe(type);
  expect(value.slice(-8)).toBe(crc32(value.slice(0, -8)).toString(16).padStart(8, '0'));
}

const keyUrl = (id: string, userId: string) => `/user-api-keys/${id}?user_id=${userId}`;
const rowsOf = (project: TestProject) =>
  env.context.database.db.selectFrom('end_user_api_key').select('id').where('project_id', '=', project.project.id).execute();
const storedRow = (id: string) =>
  env.context.database.db.selectFrom('end_user_api_key').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const setExpiry = (id: string, expiresAt: Date) =>
  env.context.database.db.updateTable('end_user_api_key').set({ expires_at: expiresAt }).where('id', '=', id).execute();
const check = (apiKey: string, headers: Headers = server()) => call('POST', '/user-api-keys/check', headers, { api_key: apiKey });
/** The read view of a created key: the value reduced to its last four. */
const viewOf = ({ value, ...rest }: CreatedKey) => ({ ...rest, value: { last_four: value.slice(-4) } });

describe('POST /user-api-keys', () => {
  it('creates a secret key shown in full once and stores only its digest', async () => {
    const user = await newUser();
    const created = await call('POST', '/user-api-keys', server(), { user_id: user.id, description: 'CI' });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(String),
      description: 'CI',
      created_at_millis: expect.any(Number),
      is_public: false,
      type: 'user',
      user_id: user.id,
      value: expect.any(String),
    });
    expect(Math.abs(created.body.created_at_millis - Date.now())).toBeLessThan(60_000);
    expectKeyString(created.body.value, created.body.id, 'user', false);

    const row = await storedRow(created.body.id);
    expect(row).toMatchObject({ project_id: env.project.project.id, type: 'user', user_id: user.id, team_id: null, expires_at: null });
    expect(row.last_four).toBe(created.body.value.slice(-4));
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    for (const [column, stored] of Object.entries(row)) {
      expect(String(stored), column).not.toContain(created.body.value);
      expect(String(stored), column).not.toContain(created.body.value.slice(3, 48));
    }
  });

  it('creates a public key with an expiry for the signed-in user (`me`, own id) with client access', async () => {
    const user = await newUser();
    const expiresAt = Date.now() + 86_400_000;
    for (const userId of ['me', user.id, user.id.toUpperCase()]) {
      const body = { user_id: userId, description: 'browser', expires_at_millis: expiresAt, is_public: true };
      const created = await call('POST', '/user-api-keys', user.client, body);
      expect(created.status, created.text).toBe(200);
      expect(created.body).toMatchObject({ is_public: true, expires_at_millis: expiresAt, type: 'user', user_id: user.id });
      expectKeyString(created.body.value, created.body.id, 'user', true);
      expect((await storedRow(created.body.id)).expires_at?.getTime()).toBe(expiresAt);
    }
    const noExpiry = await createKey(user.id, { expires_at_millis: null });
    expect(noExpiry).not.toHaveProperty('expires_at_millis');
  });

  it('answers USER_NOT_FOUND for an unknown user or one of another project', async () => {
    expectError(await call('POST', '/user-api-keys', server(), { user_id: randomUUID(), description: 'x' }), 404, 'USER_NOT_FOUND');
    // A user of another project is unknown here too.
    const stranger = await newUser(disabled);
    expectError(await call('POST', '/user-api-keys', server(), { user_id: stranger.id, description: 'x' }), 404, 'USER_NOT_FOUND');
  });

  it('answers a declared status, never 500, for an expiry outside the range of a date', async () => {
    const user = await newUser();
    for (const expiresAt of [9e15, -9e15]) {
      const body = { user_id: user.id, description: 'far', expires_at_millis: expiresAt };
      const response = await call('POST', '/user-api-keys', server(), body);
      expect([200, 400], response.text).toContain(response.status);
    }
  });
});

describe('GET /user-api-keys and /user-api-keys/{id}', () => {
  it('lists a user’s keys newest first with only their last four; expires_at_millis only when set', async () => {
    const user = await newUser();
    const other = await newUser();
    await createKey(other.id);
    const first = await createKey(user.id, { description: 'first', expires_at_millis: Date.now() + 60_000 });
    const second = await createKey(user.id, { description: 'second', is_public: true });
    const third = await createKey(user.id, { description: 'third' });

    const readers: Array<[string, Headers]> = [
      [user.id, server()],
      ['me', user.client],
      [user.id, user.client],
    ];
    for (const [userId, headers] of readers) {
      const listed = await call('GET', `/user-api-keys?user_id=${userId}`, headers);
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body).toEqual({ is_paginated: false, items: [viewOf(third), viewOf(second), viewOf(first)] });
    }
    expect([viewOf(first).expires_at_millis, 'expires_at_millis' in viewOf(third)]).toEqual([expect.any(Number), false]);
    expect((await call('GET', `/user-api-keys?user_id=${randomUUID()}`, server())).body.items).toEqual([]);
  });

  it('reads one key, and answers API_KEY_NOT_FOUND for another user’s key or an unknown id', async () => {
    const [user, other] = [await newUser(), await newUser()];
    const mine = await createKey(user.id, { description: 'mine' });
    const theirs = await createKey(other.id);
    for (const headers of [server(), user.client]) {
      const fetched = await call('GET', keyUrl(mine.id, headers === user.client ? 'me' : user.id), headers);
      expect(fetched.status, fetched.text).toBe(200);
      expect(fetched.body).toEqual(viewOf(mine));
    }
    expectError(await call('GET', keyUrl(theirs.id, user.id), server()), 404, 'API_KEY_NOT_FOUND');
    expectError(await call('GET', keyUrl(theirs.id, 'me'), user.client), 404, 'API_KEY_NOT_FOUND');
    expectError(await call('GET', keyUrl(randomUUID(), user.id), server()), 404, 'API_KEY_NOT_FOUND');
  });
});

describe('PATCH /user-api-keys/{id}', () => {
  it('changes the description and revokes once: a second revoke keeps the first time', async () => {
    const user = await newUser();
    const key = await createKey(user.id, { description: 'old' });
    const described = await call('PATCH', keyUrl(key.id, 'me'), user.client, { description: 'new' });
    expect(described.status, described.text).toBe(200);
    expect(described.body).toEqual({ ...viewOf(key), description: 'new' });

    const before = Date.now();
    const revoked = await call('PATCH', keyUrl(key.id, user.id), server(), { revoked: true });
    expect(revoked.status, revoked.text).toBe(200);
    const revokedAt = revoked.body.manually_revoked_at_millis;
    expect(revoked.body).toEqual({ ...viewOf(key), description: 'new', manually_revoked_at_millis: expect.any(Number) });
    expect(revokedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(revokedAt).toBeLessThanOrEqual(Date.now() + 1000);
    expect((await storedRow(key.id)).manually_revoked_at?.getTime()).toBe(revokedAt);

    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await call('PATCH', keyUrl(key.id, user.id), server(), { revoked: true, description: 'gone' });
    expect(again.body).toMatchObject({ description: 'gone', manually_revoked_at_millis: revokedAt });
    const unchanged = await call('PATCH', keyUrl(key.id, user.id), server(), {});
    expect(unchanged.body).toEqual(again.body);
    expect((await call('GET', keyUrl(key.id, user.id), server())).body).toEqual(again.body);
  });

  it('answers API_KEY_NOT_FOUND for an unknown key or another user’s, and changes nothing', async () => {
    const [user, other] = [await newUser(), await newUser()];
    const theirs = await createKey(other.id, { description: 'theirs' });
    expectError(await call('PATCH', keyUrl(randomUUID(), user.id), server(), { revoked: true }), 404, 'API_KEY_NOT_FOUND');
    expectError(await call('PATCH', keyUrl(theirs.id, 'me'), user.client, { revoked: true }), 404, 'API_KEY_NOT_FOUND');
    expect(await storedRow(theirs.id)).toMatchObject({ description: 'theirs', manually_revoked_at: null });
  });
});

describe('POST /user-api-keys/check', () => {
  it('answers the key’s view for a valid key, with server or client access', async () => {
    const user = await newUser();
    const key = await createKey(user.id, { description: 'valid', expires_at_millis: Date.now() + 60_000 });
    for (const headers of [server(), user.client, env.project.headers.client]) {
      const checked = await check(key.value, headers);
      expect(checked.status, checked.text).toBe(200);
      expect(checked.body).toEqual(viewOf(key));
    }
  });

  it('answers WRONG_API_KEY_TYPE for a team key', async () => {
    const team = await env.context.services.teams.create(env.project.project, { display_name: 'Keys' });
    const teamKey = await call('POST', '/team-api-keys', server(), { team_id: team.id, description: 'team' });
    expect(teamKey.status, teamKey.text).toBe(200);
    expectError(await check(teamKey.body.value), 400, 'WRONG_API_KEY_TYPE', { expected_type: 'user', actual_type: 'team' });
  });

  it('answers API_KEY_REVOKED, API_KEY_EXPIRED, and expired when both apply', async () => {
    const user = await newUser();
    const revoked = await createKey(user.id);
    await call('PATCH', keyUrl(revoked.id, user.id), server(), { revoked: true });
    expectError(await check(revoked.value), 401, 'API_KEY_REVOKED');

    const bornExpired = await createKey(user.id, { expires_at_millis: Date.now() - 1000 });
    expect(Number(bornExpired.expires_at_millis)).toBeLessThan(Date.now());
    expectError(await check(bornExpired.value), 401, 'API_KEY_EXPIRED');

    const lapsed = await createKey(user.id, { expires_at_millis: Date.now() + 60_000 });
    expect((await check(lapsed.value)).status).toBe(200);
    await setExpiry(lapsed.id, new Date(Date.now() - 1000));
    expectError(await check(lapsed.value), 401, 'API_KEY_EXPIRED');

    await call('PATCH', keyUrl(bornExpired.id, user.id), server(), { revoked: true });
    expectError(await check(bornExpired.value), 401, 'API_KEY_EXPIRED');
    await setExpiry(revoked.id, new Date(Date.now() - 1000));
    expectError(await check(revoked.value), 401, 'API_KEY_EXPIRED');
  });

  it('answers API_KEY_NOT_FOUND for unknown, tampered and malformed keys and for a key of another project', async () => {
    const user = await newUser();
    const key = await createKey(user.id);
    const unknown = generateEndUserKey({ id: randomUUID(), type: 'user', isPublic: false });
    // One character of the random part changed: the checksum no longer matches.
    const tampered = key.value.slice(0, 10) + (key.value[10] === 'a' ? 'b' : 'a') + key.value.slice(11);
    for (const candidate of [unknown, tampered, key.value.toUpperCase(), 'sk_not_a_key', `${key.value}0`]) {
      expectError(await check(candidate), 404, 'API_KEY_NOT_FOUND');
    }
    const otherProject = await env.context.createProject({ 'apiKeys.enabled.user': true });
    expectError(await check(key.value, server(otherProject)), 404, 'API_KEY_NOT_FOUND');
    expect((await check(key.value)).status).toBe(200);
  });
});

describe('a project without user API keys', () => {
  it('answers every user key operation with 400 plain text', async () => {
    const user = await newUser(disabled);
    const id = randomUUID();
    const value = generateEndUserKey({ id, type: 'user', isPublic: false });
    expectPlain(await call('POST', '/user-api-keys', server(disabled), { user_id: user.id, description: 'x' }), 400);
    expectPlain(await call('POST', '/user-api-keys', user.client, { user_id: 'me', description: 'x' }), 400);
    expectPlain(await call('GET', `/user-api-keys?user_id=${user.id}`, server(disabled)), 400);
    expectPlain(await call('GET', keyUrl(id, user.id), server(disabled)), 400);
    expectPlain(await call('PATCH', keyUrl(id, user.id), server(disabled), { revoked: true }), 400);
    expectPlain(await check(value, server(disabled)), 400);
    expect(await rowsOf(disabled)).toEqual([]);
  });
});

describe('owner, request, credential and restricted-user errors of every operation', () => {
  it('answers 403 plain text to client access for another user and CANNOT_GET_OWN_USER_WITHOUT_USER to `me` without a user', async () => {
    const [user, other] = [await newUser(), await newUser()];
    const theirs = await createKey(other.id);
    const operations: Array<[Method, (userId: string) => string, object | undefined]> = [
      ['POST', () => '/user-api-keys', { description: 'theirs' }],
      ['GET', (userId) => `/user-api-keys?user_id=${userId}`, undefined],
      ['GET', (userId) => keyUrl(theirs.id, userId), undefined],
      ['PATCH', (userId) => keyUrl(theirs.id, userId), { revoked: true }],
    ];
    for (const [method, url, body] of operations) {
      const payload = (userId: string) => (method === 'POST' ? { ...body, user_id: userId } : body);
      expectPlain(await call(method, url(other.id), user.client, payload(other.id)), 403);
      expectError(await call(method, url('me'), server(), payload('me')), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    }
    // Nothing was created for the other user, nor revoked.
    expect((await call('GET', `/user-api-keys?user_id=${other.id}`, server())).body.items).toEqual([viewOf(theirs)]);
  });

  it('answers SCHEMA_ERROR (400), INVALID_SECRET_SERVER_KEY (401) and RESTRICTED_USER_NOT_ALLOWED (403)', async () => {
    const user = await newUser();
    const restricted = await newUser(env.project, { restricted_by_admin: true, restricted_by_admin_reason: 'test' });
    const key = await createKey(user.id);
    const operations: Array<[Method, string, object | undefined, object | undefined]> = [
      ['POST', '/user-api-keys', { user_id: 'me', description: 'x' }, { user_id: user.id, description: 'x'.repeat(1025) }],
      ['GET', '/user-api-keys?user_id=me', undefined, undefined],
      ['GET', keyUrl(key.id, 'me'), undefined, undefined],
      ['PATCH', keyUrl(key.id, 'me'), { description: 'x' }, { revoked: false }],
      ['POST', '/user-api-keys/check', { api_key: key.value }, { api_key: '' }],
    ];
    for (const [method, url, body, badBody] of operations) {
      const badRequest = badBody
        ? call(method, url.replace('me', user.id), server(), badBody)
        : call(method, url.split('?')[0] as string, server());
      expectError(await badRequest, 400, 'SCHEMA_ERROR');
      expectError(await call(method, url, wrongKey(), body), 401, 'INVALID_SECRET_SERVER_KEY');
      expectError(await call(method, url, restricted.client, body), 403, 'RESTRICTED_USER_NOT_ALLOWED');
    }
    expect(await storedRow(key.id)).toMatchObject({ description: 'a key', manually_revoked_at: null });
  });
});
