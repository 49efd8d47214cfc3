import { randomUUID } from 'node:crypto';
import type { UserWrite } from '@gatehouse/server/src/modules/identity/users/index.ts';
import { type TestContext, type TestProject, withTestContext } from './test-context.ts';

type RequestOptions = { method?: 'GET' | 'POST' | 'PATCH' | 'DELETE'; headers?: Record<string, string>; payload?: unknown };

/**
 * A user of `project` created through the users service and signed in: its record, its access token
 * and the client headers that carry it. The `newUser` of the API test files.
 */
export async function newSignedInUser(context: TestContext, project: TestProject, write: UserWrite = {}) {
  const { users, signIn } = context.services;
  const user = await users.create(project.project, write, 'server');
  const tokens = await signIn.signIn(project.project, user);
  const client = { ...project.headers.client, 'x-stack-access-token': tokens.access_token };
  return { id: user.id, user, token: tokens.access_token, tokens, client };
}

/**
 * The setup the users API test files share: a test context with one project, a request helper (server
 * access by default), signed-in users and the refresh grant. Call once per file, at its top level.
 */
export function usersFixture() {
  const env = withTestContext();
  const call = (url: string, options: RequestOptions = {}) =>
    env.context.request({
      method: options.method ?? 'GET',
      url: `/api/v1${url}`,
      headers: options.headers ?? env.project.headers.server,
      payload: options.payload as Record<string, unknown> | undefined,
    });
  const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;

  /** A user with a session: its record, tokens and the client headers of its access token. */
  async function signedInUser(write: UserWrite = {}, project: TestProject = env.project) {
    const { user, tokens, client } = await newSignedInUser(env.context, project, write);
    return { user, ...tokens, client };
  }

  /** The refresh grant of the token endpoint, as the SDK sends it. */
  const refresh = (refreshToken: string, project: TestProject = env.project) =>
    env.context.request({
      method: 'POST',
      url: '/api/v1/auth/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: project.project.id,
        client_secret: '__stack_public_client__',
      }).toString(),
    });

  return { env, call, unique, signedInUser, refresh };
}
