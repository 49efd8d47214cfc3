import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../examples/demo/e2e/demo-platform.ts';
import { createTestContext, type TestContext } from '@gatehouse/testing/test-context';
import { type PrismProxy, startPrismProxy } from './prism-proxy.ts';

/**
 * Stoplight Prism, a validating proxy no one here wrote, in front of a running platform: it checks
 * every request against the served document before passing it on, and every answer on its way back.
 * A representative set of calls goes through it (client, server and admin access, sign-up, sign-in,
 * the signed-in person's own data, teams, and errors a client meets: a taken email, a wrong password,
 * a token that is not one, an id that names nothing); it must report no violation. Then the same refusals
 * in Stack's SDKs' override-error-status mode, through a Prism reading the document's view of that mode.
 */
let context: TestContext;
let prism: PrismProxy;
let platformUrl = '';
const keys = { projectId: '', publishableClientKey: '', secretServerKey: '', superSecretAdminKey: '' };

beforeAll(async () => {
  const port = await freePort();
  platformUrl = `http://127.0.0.1:${port}`;
  context = await createTestContext({ publicUrl: platformUrl });
  const project = await context.createProject({ 'auth.password.allowSignIn': true, 'teams.allowClientTeamCreation': true });
  keys.projectId = project.project.id;
  keys.publishableClientKey = project.keys.publishable_client_key;
  keys.secretServerKey = project.keys.secret_server_key;
  keys.superSecretAdminKey = project.keys.super_secret_admin_key;
  await context.app.listen({ port, host: '127.0.0.1' });
  prism = await startPrismProxy(`${platformUrl}/api/v1/openapi.json`, `${platformUrl}/api/v1`);
}, 180_000);

afterAll(async () => {
  prism?.close();
  await context?.close();
});

type Access = 'client' | 'server' | 'admin';
const keyHeader = {
  client: ['x-stack-publishable-client-key', 'publishableClientKey'],
  server: ['x-stack-secret-server-key', 'secretServerKey'],
  admin: ['x-stack-super-secret-admin-key', 'superSecretAdminKey'],
} as const;
function credentials(access: Access): Record<string, string> {
  const [header, key] = keyHeader[access];
  return { 'x-stack-project-id': keys.projectId, 'x-stack-access-type': access, [header]: keys[key] };
}

/** One call through the proxy; the status and JSON body the caller sees. */
async function call(
  method: string,
  path: string,
  options: { access?: Access; token?: string; body?: unknown; headers?: Record<string, string>; through?: PrismProxy } = {},
) {
  const headers: Record<string, string> = { ...credentials(options.access ?? 'client'), ...options.headers };
  if (options.token !== undefined) headers['x-stack-access-token'] = options.token;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${(options.through ?? prism).url}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.includes('application/json') ?? false;
  return {
    status: response.status,
    actualStatus: response.headers.get('x-stack-actual-status'),
    body: (isJson ? JSON.parse(text) : text) as Record<string, unknown> & { items?: unknown[] },
  };
}

describe('a validating proxy (Stoplight Prism) in front of the platform', () => {
  it('sees no request or response violation across sign-up, sign-in, a person, teams and errors', { timeout: 180_000 }, async () => {
    const email = `proxied-${randomUUID().slice(0, 8)}@example.test`;
    const password = 'proxied-password-1';
    const statuses: Record<string, number> = {};
    const record = async (name: string, request: ReturnType<typeof call>) => {
      const response = await request;
      statuses[name] = response.status;
      return response;
    };

    const signUp = await record('sign up', call('POST', '/auth/password/sign-up', { body: { email, password } }));
    await record('sign up again', call('POST', '/auth/password/sign-up', { body: { email, password } }));
    await record('wrong password', call('POST', '/auth/password/sign-in', { body: { email, password: 'not-the-password-1' } }));
    const signIn = await record('sign in', call('POST', '/auth/password/sign-in', { body: { email, password } }));
    const token = String(signIn.body.access_token);
    const me = await record('read me', call('GET', '/users/me', { token }));
    await record('update me', call('PATCH', '/users/me', { token, body: { display_name: 'Proxied Person' } }));
    await record('not a token', call('GET', '/users/me', { token: 'not-a-token' }));
    const team = await record(
      'create team',
      call('POST', '/teams', { token, body: { display_name: 'Proxied team', creator_user_id: 'me' } }),
    );
    await record('list my teams', call('GET', '/teams?user_id=me', { token }));
    await record('read team', call('GET', `/teams/${String(team.body.id)}`, { token }));
    await record('read sessions', call('GET', '/auth/sessions?user_id=me', { token }));
    await record('project', call('GET', '/projects/current'));
    await record('server reads user', call('GET', `/users/${String(signUp.body.user_id)}`, { access: 'server' }));
    await record('server reads nobody', call('GET', `/users/${randomUUID()}`, { access: 'server' }));
    await record('server lists users', call('GET', '/users', { access: 'server' }));
    await record('admin reads project', call('GET', '/projects/current', { access: 'admin' }));
    await record('sign out', call('DELETE', '/auth/sessions/current', { token }));

    expect(me.body.primary_email).toBe(email);
    expect(statuses).toEqual({
      'sign up': 200,
      'sign up again': 409,
      'wrong password': 400,
      'sign in': 200,
      'read me': 200,
      'update me': 200,
      'not a token': 401,
      'create team': 201,
      'list my teams': 200,
      'read team': 200,
      'read sessions': 200,
      project: 200,
      'server reads user': 200,
      'server reads nobody': 404,
      'server lists users': 200,
      'admin reads project': 200,
      'sign out': 200,
    });
    // Prism logs each request it passed on, then one line per violation it found.
    expect(prism.requestsReceived()).toBeGreaterThanOrEqual(Object.keys(statuses).length);
    expect(prism.violations()).toEqual([]);

    // The proxy does validate: a sign-up without its password is reported (and the platform refuses it too).
    const before = prism.log().length;
    expect((await call('POST', '/auth/password/sign-up', { body: { email } })).status).toBe(400);
    await expect.poll(() => /Violation: request\.body/.test(prism.log().slice(before))).toBe(true);
  });

  it("accepts Stack's override-error-status mode through the view that describes it", { timeout: 180_000 }, async () => {
    // As Stack's SDKs call from a browser: every request asks for refusals as 200s, the real status in a header.
    const override = { 'x-stack-override-error-status': 'true' };
    const overrideProxy = await startPrismProxy(`${platformUrl}/api/v1/openapi.json?override_error_status=true`, `${platformUrl}/api/v1`);
    try {
      const email = `overridden-${randomUUID().slice(0, 8)}@example.test`;
      const password = 'overridden-password-1';
      const through = overrideProxy;
      const seen: Record<string, [number, string | null, unknown]> = {};
      const record = async (name: string, request: ReturnType<typeof call>) => {
        const response = await request;
        seen[name] = [response.status, response.actualStatus, typeof response.body === 'object' ? response.body.code : 'text'];
        return response;
      };
      await record('sign up', call('POST', '/auth/password/sign-up', { body: { email, password }, headers: override, through }));
      await record('sign up again', call('POST', '/auth/password/sign-up', { body: { email, password }, headers: override, through }));
      await record(
        'wrong password',
        call('POST', '/auth/password/sign-in', { body: { email, password: 'not-the-password-1' }, headers: override, through }),
      );
      const signIn = await record(
        'sign in',
        call('POST', '/auth/password/sign-in', { body: { email, password }, headers: override, through }),
      );
      await record('read me', call('GET', '/users/me', { token: String(signIn.body.access_token), headers: override, through }));
      await record('not a token', call('GET', '/users/me', { token: 'not-a-token', headers: override, through }));
      await record('signed out me', call('GET', '/users/me', { headers: override, through }));
      await record('server reads nobody', call('GET', `/users/${randomUUID()}`, { access: 'server', headers: override, through }));
      await record('unknown team', call('GET', `/teams/${randomUUID()}`, { access: 'server', headers: override, through }));

      expect(seen).toEqual({
        'sign up': [200, null, undefined],
        'sign up again': [200, '409', 'USER_EMAIL_ALREADY_EXISTS'],
        'wrong password': [200, '400', 'EMAIL_PASSWORD_MISMATCH'],
        'sign in': [200, null, undefined],
        'read me': [200, null, undefined],
        'not a token': [200, '401', 'UNPARSABLE_ACCESS_TOKEN'],
        'signed out me': [200, '400', 'CANNOT_GET_OWN_USER_WITHOUT_USER'],
        'server reads nobody': [200, '404', 'USER_NOT_FOUND'],
        'unknown team': [200, '404', 'TEAM_NOT_FOUND'],
      });
      expect(overrideProxy.requestsReceived()).toBeGreaterThanOrEqual(Object.keys(seen).length);
      expect(overrideProxy.violations()).toEqual([]);

      // The whole document does not describe those 200s: the first proxy reports the overridden refusal.
      const before = prism.log().length;
      expect((await call('POST', '/auth/password/sign-up', { body: { email, password }, headers: override })).actualStatus).toBe('409');
      await expect.poll(() => /Violation: response\.body/.test(prism.log().slice(before))).toBe(true);
    } finally {
      overrideProxy.close();
    }
  });
});
