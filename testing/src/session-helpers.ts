import { decodeJwt } from 'jose';
import { expect } from 'vitest';
import type { TestEnvironment, TestProject } from './test-context.ts';

export const publicClient = '__stack_public_client__';
export const dayMillis = 24 * 60 * 60 * 1000;

type RequestOptions = { method?: 'GET' | 'POST' | 'PATCH' | 'DELETE'; headers?: Record<string, string>; payload?: Record<string, unknown> };

/**
 * What the session test files share over their platform (\`withTestContext()\`): signed-in users and
 * extra sessions, the refresh grant as the SDK sends it, API calls, and the checks and row edits
 * the journeys use.
 */
export function sessionHelpers(env: TestEnvironment) {
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

  return {
    signedInUser,
    session,
    tokenEndpoint,
    refresh,
    call,
    currentUser,
    expectKnownError,
    expectEnded,
    expectPlainText,
    sessionRow,
    setSession,
    ageRotations,
  };
}
