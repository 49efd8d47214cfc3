import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';
import { publicClient, sessionHelpers } from '@gatehouse/testing/session-helpers';

/**
 * Refreshing a session (docs/protocol/overview.md §6, docs/protocol/endpoints.md §8): the OAuth refresh grant,
 * the header refresh, and opt-in rotation with reuse detection. Listing, creating and ending sessions: sessions.test.ts.
 */
const env = withTestContext();
const { signedInUser, tokenEndpoint, refresh, call, currentUser, expectKnownError, expectEnded, sessionRow, setSession, ageRotations } =
  sessionHelpers(env);

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
