import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import type { BreachedPasswordSettings } from './password-policy.ts';

/**
 * The per-project password policy: length bounds and the breached-password check against a local
 * stand-in of Have I Been Pwned's range API (its real shape: `SUFFIX:COUNT` lines, padding lines
 * with count 0), which records what it was asked so the test can see only the prefix left.
 */
const breached = 'P@ssw0rd-breached';
const sha1 = (text: string) => createHash('sha1').update(text).digest('hex').toUpperCase();
const hibp: { mode: 'ok' | 'down' | 'slow' | 'error'; requests: IncomingMessage[]; bodies: string[] } = {
  mode: 'ok',
  requests: [],
  bodies: [],
};
let standIn: Server;
const settings: BreachedPasswordSettings = { rangeUrl: '', timeoutMillis: 400 };

beforeAll(async () => {
  standIn = createServer((request, response) => {
    hibp.requests.push(request);
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      hibp.bodies.push(body);
      if (hibp.mode === 'down') return request.socket.destroy();
      if (hibp.mode === 'slow') return; // never answers
      if (hibp.mode === 'error') return response.writeHead(503).end('Service Unavailable');
      const prefix = request.url?.split('/').at(-1) ?? '';
      const hit = sha1(breached);
      const lines = ['0018A45C4D1DEF81644B54AB7F969B88D65:21', '00D4F6E8FA6EECAD2A3AA415EEC418D38EC:0'];
      if (hit.startsWith(prefix)) lines.push(`${hit.slice(5)}:3861493`);
      response.writeHead(200, { 'content-type': 'text/plain' }).end(lines.join('\r\n'));
    });
  });
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  settings.rangeUrl = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}/range/`;
});
afterAll(async () => {
  standIn.closeAllConnections();
  await new Promise((resolve) => standIn.close(resolve));
});

const policyConfig = { 'auth.password.allowSignIn': true, 'auth.passwordPolicy': { minLength: 8, maxLength: 70, checkBreached: true } };
const env = withTestContext({ projectConfig: policyConfig, settings: { users: settings } });
const newEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;
const signUp = (password: string, project: TestProject = env.project, email = newEmail('user')) =>
  env.context.request({
    method: 'POST',
    url: '/api/v1/auth/password/sign-up',
    headers: project.headers.client,
    payload: { email, password },
  });

describe('the breached-password check', () => {
  it('refuses a known-breached password with PASSWORD_BREACHED; only the 5-character prefix reaches the service', async () => {
    hibp.mode = 'ok';
    const before = hibp.requests.length;
    expectError(await signUp(breached), 400, 'PASSWORD_BREACHED', {});
    const asked = hibp.requests.slice(before);
    expect(asked).toHaveLength(1);
    const [request] = asked as [IncomingMessage];
    expect(request.method).toBe('GET');
    expect(request.url).toBe(`/range/${sha1(breached).slice(0, 5)}`);
    expect(request.headers['add-padding']).toBe('true');
    const seen = `${request.url} ${JSON.stringify(request.headers)} ${hibp.bodies.at(-1)}`;
    expect(seen).not.toContain(sha1(breached).slice(5, 10));
    expect(seen).not.toContain(breached);
    expect(hibp.bodies.at(-1)).toBe('');
  });

  it('accepts a password not in the corpus (a padding line with count 0 is no hit)', async () => {
    hibp.mode = 'ok';
    expect((await signUp('a perfectly fine passphrase')).status).toBe(200);
  });

  it('is off unless the project turns it on', async () => {
    const project = await env.context.createProject({ 'auth.password.allowSignIn': true });
    const before = hibp.requests.length;
    expect((await signUp(breached, project)).status).toBe(200);
    expect(hibp.requests.length).toBe(before);
  });

  it.each([
    ['down (connection reset)', 'down'],
    ['slow (no answer within the timeout)', 'slow'],
    ['failing (503)', 'error'],
  ] as const)('fails open when the service is %s: the password is accepted, a line is logged, no hang', async (_what, mode) => {
    hibp.mode = mode;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const started = performance.now();
      expect((await signUp(breached)).status).toBe(200);
      expect(performance.now() - started).toBeLessThan(settings.timeoutMillis + 4_000);
      expect(warn).toHaveBeenCalledWith(
        expect.stringMatching(/^Breached-password check skipped \(password accepted\): the range API did not answer: /),
      );
    } finally {
      warn.mockRestore();
      hibp.mode = 'ok';
    }
  });

  it('applies to every way a password is set: update, set, reset, server create, server update, PATCH /users/me', async () => {
    hibp.mode = 'ok';
    const { project } = env;
    const email = newEmail('owner');
    const session = await signUp('a perfectly fine passphrase', project, email);
    const userHeaders = { ...project.headers.client, 'x-stack-access-token': session.body.access_token };
    const update = await env.context.request({
      method: 'POST',
      url: '/api/v1/auth/password/update',
      headers: userHeaders,
      payload: { old_password: 'a perfectly fine passphrase', new_password: breached },
    });
    expectError(update, 400, 'PASSWORD_BREACHED');

    const created = await env.context.request({
      method: 'POST',
      url: '/api/v1/users',
      headers: project.headers.server,
      payload: { primary_email: newEmail('nopass'), primary_email_auth_enabled: true },
    });
    const signedIn = await env.context.request({
      method: 'POST',
      url: '/api/v1/auth/sessions',
      headers: project.headers.server,
      payload: { user_id: created.body.id },
    });
    const set = await env.context.request({
      method: 'POST',
      url: '/api/v1/auth/password/set',
      headers: { ...project.headers.client, 'x-stack-access-token': signedIn.body.access_token },
      payload: { password: breached },
    });
    expectError(set, 400, 'PASSWORD_BREACHED');

    const callbackUrl = 'https://app.example.com/handler/password-reset';
    await env.context.services.projects.replaceConfigOverride(project.project.id, {
      ...policyConfig,
      'domains.trustedDomains': { app: { baseUrl: 'https://app.example.com', handlerPath: '/handler' } },
    });
    const sent = await env.context.request({
      method: 'POST',
      url: '/api/v1/auth/password/send-reset-code',
      headers: project.headers.client,
      payload: { email, callback_url: callbackUrl },
    });
    expect(sent.status, sent.text).toBe(200);
    const reset = await env.context.request({
      method: 'POST',
      url: '/api/v1/auth/password/reset',
      headers: project.headers.client,
      payload: { code: env.context.codeSentTo(email), password: breached },
    });
    expectError(reset, 400, 'PASSWORD_BREACHED');

    const serverCreate = await env.context.request({
      method: 'POST',
      url: '/api/v1/users',
      headers: project.headers.server,
      payload: { primary_email: newEmail('server'), password: breached },
    });
    expectError(serverCreate, 400, 'PASSWORD_BREACHED');
    const serverUpdate = await env.context.request({
      method: 'PATCH',
      url: `/api/v1/users/${created.body.id}`,
      headers: project.headers.server,
      payload: { password: breached },
    });
    expectError(serverUpdate, 400, 'PASSWORD_BREACHED');
    const me = await env.context.request({
      method: 'PATCH',
      url: '/api/v1/users/me',
      headers: { ...project.headers.server, 'x-stack-access-token': signedIn.body.access_token },
      payload: { password: breached },
    });
    expectError(me, 400, 'PASSWORD_BREACHED');
  });
});

describe('length bounds per project', () => {
  it('uses the project minimum and maximum, with their values in the details', async () => {
    const project = await env.context.createProject({
      'auth.password.allowSignIn': true,
      'auth.passwordPolicy': { minLength: 12, maxLength: 20, checkBreached: false },
    });
    expectError(await signUp('eleven char', project), 400, 'PASSWORD_TOO_SHORT', { min_length: 12 });
    expectError(await signUp('twenty-one characters', project), 400, 'PASSWORD_TOO_LONG', { maxLength: 20 });
    expect((await signUp('twelve chars', project)).status).toBe(200);
  });

  it('refuses an unworkable policy at save time', async () => {
    const project = await env.context.createProject();
    const save = (policy: object) =>
      env.context.request({
        method: 'PATCH',
        url: '/api/v1/internal/config/override/project',
        headers: project.headers.admin,
        payload: { config_override_string: JSON.stringify({ 'auth.passwordPolicy': policy }) },
      });
    const tooLow = await save({ minLength: 4, maxLength: 70, checkBreached: false });
    expect(tooLow.status).toBe(400);
    expect(tooLow.text).toBe('auth.passwordPolicy.minLength must be a whole number from 8 to 256.');
    const inverted = await save({ minLength: 30, maxLength: 20, checkBreached: false });
    expect(inverted.text).toBe('auth.passwordPolicy.maxLength must be a whole number from auth.passwordPolicy.minLength to 4096.');
    expect((await save({ minLength: 10, maxLength: 128, checkBreached: true })).status).toBe(200);
  });
});
