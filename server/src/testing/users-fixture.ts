import { randomUUID } from 'node:crypto';
import type { UserWrite } from '../modules/identity/users/index.ts';
import { type TestProject, withTestContext } from './test-context.ts';

type RequestOptions = { method?: 'GET' | 'POST' | 'PATCH' | 'DELETE'; headers?: Record<string, string>; payload?: unknown };

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
    const { users, signIn } = env.context.services;
    const user = await users.create(project.project, write, 'server');
    const tokens = await signIn.signIn(project.project, user);
    return { user, ...tokens, client: { ...project.headers.client, 'x-stack-access-token': tokens.access_token } };
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
