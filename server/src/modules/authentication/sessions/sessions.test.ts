import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { type TestProject, withTestContext } from '../../../testing/test-context.ts';

/**
 * Sessions (docs/protocol/overview.md §6, docs/protocol/endpoints.md §8): the OAuth refresh grant, the header refresh,
 * opt-in rotation with reuse detection, listing, creating and ending sessions.
 */
const env = withTestContext();

const publicClient = '__stack_public_client__';
const dayMillis = 24 * 60 * 60 * 1000;

/** A user with one session: its tokens and the client headers of its access token. */
async function signedInUser(project: TestProject = env.project) {
  const user = await env.context.services.users.create(project.project, {}, 'server');
  return { user, ...(await session(project, user.id)) };
}
/** Another session of the user. */
async function session(project: TestProject, userId: string) {
  const user = await env.context.services.users.get(project.project.id, userId);
  const tokens = await env.context.services.signIn.signIn(project.project, user);
  const sessionId = decodeJwt(tokens.access_token).refresh_token_id as string;
  return { ...tokens, sessionId, client: { ...project.headers.client, 'x-stack-access-token': tokens.access_token } };
}

const tokenEndpoint = (fields: Record<string, string>, encoding: 'form' | 'json' = 'form') =>
  env.context.request({
    method: 'POST',
    url: '/api/v1/auth/oauth/token',
    headers: { 'content-type': encoding === 'form' ? 'application/x-www-form-urlencoded' : 'application/json' },
    payload: encoding === 'form' ? new URLSearchParams(fields).toString() : JSON.stringify(fields),
  });
/** The refresh grant as the SDK sends it. */
const refresh = (refreshToken: string, project: TestProject = env.project, overrides: Record<string, string> = {}) =>
  tokenEndpoint({
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: project.project.id,
    client_secret: publicClient,
    ...overrides,
  });

type RequestOptions = { method?: 'GET' | 'POST' | 'PATCH' | 'DELETE'; headers?: Record<string, string>; payload?: Record<string, unknown> };
const call = (url: string, options: RequestOptions = {}) =>
  env.context.request({
    method: options.method ?? 'GET',
    url: `/api/v1${url}`,
    headers: options.headers ?? env.project.headers.server,
    payload: options.payload,
  });
const currentUser = (accessToken: string, project: TestProject = env.project) =>
  call('/users/me', { headers: { ...project.headers.client, 'x-stack-access-token': accessToken } });

const expectKnownError = (response: { status: number; body: { code?: string } }, status: number, code: string) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.code).toBe(code);
};
const expectEnded = async (refreshToken: string, project: TestProject = env.project) =>
  expectKnownError(await refresh(refreshToken, project), 401, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
const expectPlainText = (response: { status: number; headers: Record<string, unknown>; text: string }, status: number) => {
  expect(response.status, response.text).toBe(status);
  expect(String(response.headers['content-type'])).toMatch(/^text\/plain/);
};
const sessionRow = (id: string) =>
  env.context.database.db.selectFrom('refresh_session').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const setSession = (id: string, values: { expires_at?: Date; last_used_at?: Date }) =>
  env.context.database.db.updateTable('refresh_session').set(values).where('id', '=', id).execute();
/** Moves the session's rotations into the past, beyond the grace window. */
const ageRotations = (sessionId: string, millis: number) =>
  env.context.database.db
    .updateTable('replaced_refresh_token')
    .set({ replaced_at: new Date(Date.now() - millis) })
    .where('session_id', '=', sessionId)
    .execute();

describe('POST /auth/oauth/token (refresh grant)', () => {
  it('answers a fresh access token and the same refresh token, with the sentinel or the publishable key', async () => {
    const { user, refresh_token, sessionId } = await signedInUser();
    for (const clientSecret of [publicClient, env.project.keys.publishable_client_key]) {
      const response = await refresh(refresh_token, env.project, { client_secret: clientSecret });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 600,
        refresh_token,
        scope: 'legacy',
      });
      const claims = decodeJwt(response.body.access_token);
      expect(claims).toMatchObject({ sub: user.id, refresh_token_id: sessionId, project_id: env.project.project.id });
      expect((claims.exp as number) - (claims.iat as number)).toBe(600);
      const me = await currentUser(response.body.access_token);
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(user.id);
    }
  });

  it('accepts a client_id with a branch, and a JSON body', async () => {
    const { refresh_token } = await signedInUser();
    expect((await refresh(refresh_token, env.project, { client_id: `${env.project.project.id}#main` })).status).toBe(200);
    const json = await tokenEndpoint(
      { grant_type: 'refresh_token', refresh_token, client_id: env.project.project.id, client_secret: publicClient },
      'json',
    );
    expect(json.status).toBe(200);
    expect(json.body.refresh_token).toBe(refresh_token);
  });

  it('an unknown project or a wrong client secret is INVALID_OAUTH_CLIENT_ID_OR_SECRET', async () => {
    const { refresh_token } = await signedInUser();
    const other = await env.context.createProject();
    const unknownId = randomUUID();
    for (const overrides of [
      { client_id: unknownId } as Record<string, string>,
      { client_id: `${unknownId}#main` },
      { client_secret: 'pck_wrong' },
      { client_secret: other.keys.publishable_client_key },
    ]) {
      const response = await refresh(refresh_token, env.project, overrides);
      expectKnownError(response, 400, 'INVALID_OAUTH_CLIENT_ID_OR_SECRET');
      expect(response.body.details).toEqual({ client_id: overrides.client_id ?? env.project.project.id });
    }
  });

  it('a project that requires a publishable key refuses the sentinel and a missing secret', async () => {
    const keyed = await env.context.createProject({ 'project.requirePublishableClientKey': true });
    const { refresh_token } = await signedInUser(keyed);
    const sentinel = await refresh(refresh_token, keyed);
    expectKnownError(sentinel, 401, 'PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT');
    expect(sentinel.body.details).toEqual({ project_id: keyed.project.id });
    const missing = await tokenEndpoint({ grant_type: 'refresh_token', refresh_token, client_id: keyed.project.id });
    expectKnownError(missing, 401, 'PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT');
    expect((await refresh(refresh_token, keyed, { client_secret: keyed.keys.publishable_client_key })).status).toBe(200);
  });

  it('an unknown, foreign or expired refresh token is REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', async () => {
    await expectEnded('a'.repeat(45));
    const other = await env.context.createProject();
    const foreign = await signedInUser(other);
    await expectEnded(foreign.refresh_token);
    expect((await refresh(foreign.refresh_token, other)).status).toBe(200);
    const { refresh_token, sessionId } = await signedInUser();
    await setSession(sessionId, { expires_at: new Date(Date.now() - 1000) });
    await expectEnded(refresh_token);
  });

  it('signs the user’s current claims, not those of the sign-in', async () => {
    const { user, refresh_token } = await signedInUser();
    await call(`/users/${user.id}`, { method: 'PATCH', payload: { display_name: 'Renamed', restricted_by_admin: true } });
    const claims = decodeJwt((await refresh(refresh_token)).body.access_token);
    expect(claims).toMatchObject({ name: 'Renamed', is_restricted: true, restricted_reason: { type: 'restricted_by_administrator' } });
  });

  it('records the use on the session and the user', async () => {
    const { user, refresh_token, sessionId } = await signedInUser();
    const past = new Date(Date.now() - 5 * 60_000);
    await setSession(sessionId, { last_used_at: past });
    await env.context.database.db.updateTable('project_user').set({ last_active_at: past }).where('id', '=', user.id).execute();
    const before = Date.now();
    expect((await refresh(refresh_token)).status).toBe(200);
    expect((await sessionRow(sessionId)).last_used_at.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const view = await call(`/users/${user.id}`);
    expect(view.body.last_active_at_millis).toBeGreaterThanOrEqual(before - 1000);
  });
});

describe('POST /auth/sessions/current/refresh', () => {
  it('answers only an access token for the refresh token of the header', async () => {
    const { user, refresh_token } = await signedInUser();
    const response = await call('/auth/sessions/current/refresh', {
      method: 'POST',
      headers: { ...env.project.headers.client, 'x-stack-refresh-token': refresh_token },
    });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['access_token']);
    expect((await currentUser(response.body.access_token)).body.id).toBe(user.id);
  });

  it('without the header, or with an unknown or foreign token, is REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', async () => {
    const foreign = await signedInUser(await env.context.createProject());
    for (const refreshToken of [undefined, 'b'.repeat(45), foreign.refresh_token]) {
      const headers = { ...env.project.headers.client, ...(refreshToken ? { 'x-stack-refresh-token': refreshToken } : {}) };
      expectKnownError(
        await call('/auth/sessions/current/refresh', { method: 'POST', headers }),
        401,
        'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED',
      );
    }
  });
});

describe('refresh-token rotation (opt-in)', () => {
  const rotating = () => env.context.createProject({ 'auth.sessions.rotateRefreshTokens': true });

  it('each refresh replaces the token; the header refresh returns the new one too', async () => {
    const project = await rotating();
    const { refresh_token: first } = await signedInUser(project);
    const second = (await refresh(first, project)).body.refresh_token;
    expect(second).toMatch(/^[a-z2-7]{45}$/);
    expect(second).not.toBe(first);
    const third = await call('/auth/sessions/current/refresh', {
      method: 'POST',
      headers: { ...project.headers.client, 'x-stack-refresh-token': second },
    });
    expect(third.status).toBe(200);
    expect(third.body.refresh_token).toMatch(/^[a-z2-7]{45}$/);
    expect(new Set([first, second, third.body.refresh_token]).size).toBe(3);
    expect((await refresh(third.body.refresh_token, project)).status).toBe(200);
  });

  it('the replaced token works for 10 s; replayed later it ends the whole session', async () => {
    const project = await rotating();
    const { refresh_token: replaced, sessionId } = await signedInUser(project);
    const newest = (await refresh(replaced, project)).body.refresh_token;
    const grace = await refresh(replaced, project);
    expect(grace.status).toBe(200);
    expect(decodeJwt(grace.body.access_token).refresh_token_id).toBe(sessionId);
    await ageRotations(sessionId, 11_000);
    await expectEnded(replaced, project);
    await expectEnded(newest, project);
  });

  it('replaying a token two rotations old ends the whole session too', async () => {
    const project = await rotating();
    const { refresh_token: oldest, sessionId } = await signedInUser(project);
    const middle = (await refresh(oldest, project)).body.refresh_token;
    const newest = (await refresh(middle, project)).body.refresh_token;
    await ageRotations(sessionId, 11_000);
    await expectEnded(oldest, project);
    await expectEnded(newest, project);
  });
});

describe('GET /auth/sessions', () => {
  const list = (userId: string, headers: Record<string, string>) => call(`/auth/sessions?user_id=${userId}`, { headers });

  it('lists the user’s live sessions, most recently used first, marking only the token’s one as current', async () => {
    const { user, sessionId, client } = await signedInUser();
    const second = await session(env.project, user.id);
    const expired = await session(env.project, user.id);
    await setSession(expired.sessionId, { expires_at: new Date(Date.now() - 1000) });
    await setSession(sessionId, { last_used_at: new Date(Date.now() - 60_000) });
    await signedInUser(); // someone else's session

    const response = await list('me', client);
    expect(response.status).toBe(200);
    expect(response.body.is_paginated).toBe(false);
    expect(response.body.items).toEqual([
      expect.objectContaining({ id: second.sessionId, user_id: user.id, is_current_session: false, is_impersonation: false }),
      expect.objectContaining({ id: sessionId, user_id: user.id, is_current_session: true, is_impersonation: false }),
    ]);
    const row = await sessionRow(sessionId);
    expect(response.body.items[1]).toMatchObject({ created_at: row.created_at.getTime(), last_used_at: row.last_used_at.getTime() });

    const byId = await list(user.id, client);
    expect(byId.body.items.map((item: { id: string }) => item.id)).toEqual([second.sessionId, sessionId]);
    const asServer = await list(user.id, env.project.headers.server);
    expect(asServer.body.items.map((item: { is_current_session: boolean }) => item.is_current_session)).toEqual([false, false]);
  });

  it('client access to another user’s sessions is a plain-text 403', async () => {
    const { client } = await signedInUser();
    const other = await signedInUser();
    expectPlainText(await list(other.user.id, client), 403);
  });

  it('an unknown user is USER_NOT_FOUND; me without a user token is CANNOT_GET_OWN_USER_WITHOUT_USER', async () => {
    expectKnownError(await list(randomUUID(), env.project.headers.server), 404, 'USER_NOT_FOUND');
    expectKnownError(await list('me', env.project.headers.server), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
  });
});

describe('DELETE /auth/sessions/{session_id}', () => {
  const end = (sessionId: string, userId: string, headers: Record<string, string>) =>
    call(`/auth/sessions/${sessionId}?user_id=${userId}`, { method: 'DELETE', headers });

  it('refuses the current session, which keeps working', async () => {
    const { refresh_token, sessionId, client } = await signedInUser();
    expectKnownError(await end(sessionId, 'me', client), 400, 'CANNOT_DELETE_CURRENT_SESSION');
    expect((await refresh(refresh_token)).status).toBe(200);
  });

  it('ends another session of the user at once', async () => {
    const { user, refresh_token, client } = await signedInUser();
    const other = await session(env.project, user.id);
    const response = await end(other.sessionId, 'me', client);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true });
    await expectEnded(other.refresh_token);
    expect((await refresh(refresh_token)).status).toBe(200);
    const third = await session(env.project, user.id);
    expect((await end(third.sessionId, user.id, env.project.headers.server)).body).toEqual({ success: true });
    await expectEnded(third.refresh_token);
  });

  it('an unknown session, or another user’s, is a plain-text 404 and ends nothing', async () => {
    const { client } = await signedInUser();
    const stranger = await signedInUser();
    expectPlainText(await end(randomUUID(), 'me', client), 404);
    expectPlainText(await end(stranger.sessionId, 'me', client), 404);
    expect((await refresh(stranger.refresh_token)).status).toBe(200);
  });

  it('client access naming another user is a plain-text 403; me without a user is CANNOT_GET_OWN_USER_WITHOUT_USER', async () => {
    const { client } = await signedInUser();
    const stranger = await signedInUser();
    expectPlainText(await end(stranger.sessionId, stranger.user.id, client), 403);
    expectKnownError(await end(randomUUID(), 'me', env.project.headers.server), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
  });
});

describe('DELETE /auth/sessions/current', () => {
  it('signs out: the refresh token fails, a second sign-out is REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED, other sessions live', async () => {
    const { user, refresh_token, client } = await signedInUser();
    const other = await session(env.project, user.id);
    const response = await call('/auth/sessions/current', { method: 'DELETE', headers: client });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true });
    await expectEnded(refresh_token);
    expectKnownError(
      await call('/auth/sessions/current', { method: 'DELETE', headers: client }),
      401,
      'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED',
    );
    expect((await refresh(other.refresh_token)).status).toBe(200);
  });
});

describe('POST /auth/sessions', () => {
  const create = (payload: Record<string, unknown>, headers: Record<string, string> = env.project.headers.server) =>
    call('/auth/sessions', { method: 'POST', headers, payload });

  it('creates a working session that lasts 365 days by default', async () => {
    const user = await env.context.services.users.create(env.project.project, {}, 'server');
    const before = Date.now();
    const response = await create({ user_id: user.id });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['access_token', 'refresh_token']);
    expect(response.body.refresh_token).toMatch(/^[a-z2-7]{45}$/);
    const sessionId = decodeJwt(response.body.access_token).refresh_token_id as string;
    const row = await sessionRow(sessionId);
    expect(row).toMatchObject({ user_id: user.id, is_impersonation: false });
    expect(row.expires_at.getTime() - before).toBeGreaterThanOrEqual(365 * dayMillis - 1000);
    expect(row.expires_at.getTime() - Date.now()).toBeLessThanOrEqual(365 * dayMillis + 1000);
    expect((await currentUser(response.body.access_token)).body.id).toBe(user.id);
    expect((await refresh(response.body.refresh_token)).status).toBe(200);
  });

  it('marks an impersonation in the list and honours expires_in_millis', async () => {
    const { user, client } = await signedInUser();
    const before = Date.now();
    const response = await create({ user_id: user.id, is_impersonation: true, expires_in_millis: 3_600_000 });
    const sessionId = decodeJwt(response.body.access_token).refresh_token_id as string;
    const expiresIn = (await sessionRow(sessionId)).expires_at.getTime() - before;
    expect(expiresIn).toBeGreaterThan(3_600_000 - 1000);
    expect(expiresIn).toBeLessThan(3_600_000 + 1000);
    const listed = await call('/auth/sessions?user_id=me', { headers: client });
    expect(listed.body.items.find((item: { id: string }) => item.id === sessionId)).toMatchObject({ is_impersonation: true });
    const exactlyMax = await create({ user_id: user.id, expires_in_millis: 367 * dayMillis });
    expect(exactlyMax.status).toBe(200);
  });

  it('a session past its expiry no longer refreshes', async () => {
    const user = await env.context.services.users.create(env.project.project, {}, 'server');
    const response = await create({ user_id: user.id, expires_in_millis: 1 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expectEnded(response.body.refresh_token);
  });

  it('user_id me is the user of the access token', async () => {
    const { user, access_token } = await signedInUser();
    const response = await create({ user_id: 'me' }, { ...env.project.headers.server, 'x-stack-access-token': access_token });
    expect(response.status).toBe(200);
    expect(decodeJwt(response.body.access_token).sub).toBe(user.id);
  });

  it('an unknown user, me without a user, or over 367 days are refused', async () => {
    const unknown = randomUUID();
    const response = await create({ user_id: unknown });
    expectKnownError(response, 400, 'USER_ID_DOES_NOT_EXIST');
    expect(response.body.details).toEqual({ user_id: unknown });
    expectKnownError(await create({ user_id: 'me' }), 400, 'CANNOT_GET_OWN_USER_WITHOUT_USER');
    const user = await env.context.services.users.create(env.project.project, {}, 'server');
    expectKnownError(await create({ user_id: user.id, expires_in_millis: 367 * dayMillis + 1 }), 400, 'SCHEMA_ERROR');
  });
});

describe('deleting a user', () => {
  it('ends every session of the user at once', async () => {
    const { user, refresh_token } = await signedInUser();
    const other = await session(env.project, user.id);
    expect((await call(`/users/${user.id}`, { method: 'DELETE' })).body).toEqual({ success: true });
    await expectEnded(refresh_token);
    await expectEnded(other.refresh_token);
    expectKnownError(
      await call('/auth/sessions/current/refresh', {
        method: 'POST',
        headers: { ...env.project.headers.client, 'x-stack-refresh-token': refresh_token },
      }),
      401,
      'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED',
    );
  });
});
