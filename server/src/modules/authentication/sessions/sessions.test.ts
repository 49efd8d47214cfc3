import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';
import { dayMillis, sessionHelpers } from '@gatehouse/testing/session-helpers';

/**
 * Sessions (docs/protocol/overview.md §6, docs/protocol/endpoints.md §8): listing, creating and ending sessions.
 * The refresh grant, the header refresh and rotation: session-refresh.test.ts.
 */
const env = withTestContext();
const { signedInUser, session, refresh, call, currentUser, expectKnownError, expectEnded, expectPlainText, sessionRow, setSession } =
  sessionHelpers(env);

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
