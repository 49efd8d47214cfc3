import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { withTestContext } from '@gatehouse/testing/test-context';

/**
 * The hot paths cache projects, key lookups, verified tokens and the signatures of the current
 * second. Each write must take effect on this instance at once: every test warms the caches with a
 * request, writes through the API, and repeats the request straight away.
 */
const env = withTestContext({ projectConfig: { 'auth.password.allowSignIn': true } });

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, headers: Record<string, string>, payload?: object) =>
  env.context.request({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

async function signedIn(project = env.project) {
  const email = `cache-${Math.random().toString(36).slice(2)}@example.com`;
  const response = await call('POST', '/auth/password/sign-up', project.headers.client, { email, password: 'cache test password 1' });
  expect(response.status, response.text).toBe(200);
  const { access_token: accessToken, refresh_token: refreshToken, user_id: userId } = response.body;
  return {
    userId: userId as string,
    refreshToken: refreshToken as string,
    me: { ...project.headers.client, 'x-stack-access-token': accessToken as string },
    refresh: () => call('POST', '/auth/sessions/current/refresh', { ...project.headers.client, 'x-stack-refresh-token': refreshToken }),
  };
}

describe('cache invalidation on this instance', () => {
  it('a changed project (name, config) shows at once', async () => {
    const project = await env.context.createProject({ 'auth.password.allowSignIn': true });
    expect((await call('GET', '/projects/current', project.headers.client)).body.display_name).toBe('Test project');
    await call('PATCH', '/internal/projects/current', project.headers.admin, { display_name: 'Renamed' });
    expect((await call('GET', '/projects/current', project.headers.client)).body.display_name).toBe('Renamed');

    const user = await signedIn(project);
    const override = { config_override_string: JSON.stringify({ 'auth.allowSignUp': false }) };
    expect((await call('PATCH', '/internal/config/override/project', project.headers.admin, override)).status).toBe(200);
    const signUp = await call('POST', '/auth/password/sign-up', project.headers.client, {
      email: 'late@example.com',
      password: 'a password 123',
    });
    expectError(signUp, 400, 'SIGN_UP_NOT_ENABLED');
    expect((await user.refresh()).status).toBe(200);
  });

  it('a revoked key set is refused at once', async () => {
    const project = await env.context.createProject();
    expect((await call('GET', '/users', project.headers.server)).status).toBe(200);
    await call('PATCH', `/internal/api-keys/${project.keySet.id}`, project.headers.admin, { revoked: true });
    expectError(await call('GET', '/users', project.headers.server), 401, 'INVALID_SECRET_SERVER_KEY');
    expectError(await call('GET', '/projects/current', project.headers.client), 401, 'INVALID_PUBLISHABLE_CLIENT_KEY');
  });

  it('a deleted project is not found at once', async () => {
    const project = await env.context.createProject();
    expect((await call('GET', '/projects/current', project.headers.client)).status).toBe(200);
    await call('DELETE', '/internal/projects/current', project.headers.admin);
    expectError(await call('GET', '/projects/current', project.headers.client), 400, 'CURRENT_PROJECT_NOT_FOUND');
  });

  it("a deleted user's verified token and refresh token stop working at once", async () => {
    const user = await signedIn();
    expect((await call('GET', '/users/me', user.me)).status).toBe(200);
    expect((await user.refresh()).status).toBe(200);
    await call('DELETE', `/users/${user.userId}`, env.project.headers.server);
    expectError(await call('GET', '/users/me', user.me), 401, 'UNPARSABLE_ACCESS_TOKEN');
    expectError(await user.refresh(), 401, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
  });

  it('an ended session refreshes no more, even within the second its last token was signed in', async () => {
    const user = await signedIn();
    expect((await user.refresh()).status).toBe(200);
    await call('DELETE', '/auth/sessions/current', { ...user.me, 'x-stack-refresh-token': user.refreshToken });
    expectError(await user.refresh(), 401, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
  });

  it("a refresh right after a change carries the user's new claims", async () => {
    const user = await signedIn();
    expect(decodeJwt((await user.refresh()).body.access_token).name).toBeNull();
    await call('PATCH', '/users/me', user.me, { display_name: 'New name' });
    expect(decodeJwt((await user.refresh()).body.access_token).name).toBe('New name');
  });
});
