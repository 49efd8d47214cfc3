import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpSink, startSmtpSink } from '../../testing/smtp-sink.ts';
import { withTestContext } from '../../testing/test-context.ts';

const env = withTestContext();
let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());

const patchOverride = (override: unknown, headers = env.project.headers.admin) =>
  env.context.request({
    method: 'PATCH',
    url: '/api/v1/internal/config/override/project',
    headers,
    payload: { config_override_string: typeof override === 'string' ? override : JSON.stringify(override) },
  });

describe('GET /internal/config and PATCH /internal/config/override/{level}', () => {
  it('renders defaults with the override, merges dotted entries, and answers the rendered config', async () => {
    const before = await env.context.request({ url: '/api/v1/internal/config', headers: env.project.headers.admin });
    expect(JSON.parse(before.body.config_string).auth.password.allowSignIn).toBe(false);
    const after = await patchOverride({ 'auth.password.allowSignIn': true, 'teams.allowClientTeamCreation': true });
    expect(after.status).toBe(200);
    const config = JSON.parse(after.body.config_string);
    expect(config.auth.password.allowSignIn).toBe(true);
    expect(config.teams.allowClientTeamCreation).toBe(true);
    const current = await env.context.request({ url: '/api/v1/projects/current', headers: env.project.headers.client });
    expect(current.body.config.credential_enabled).toBe(true);
  });

  it.each([
    ['not JSON', '{oops', 'config_override_string is not valid JSON.'],
    ['not an object', '[1, 2]', 'config_override_string must be a JSON object.'],
    [
      'an OAuth provider with own keys and no client id',
      { 'auth.oauth.providers': { github: { type: 'github', isShared: false, allowSignIn: true } } },
      'OAuth provider github uses its own keys: its client id is required.',
    ],
    [
      'an OAuth provider with own keys and no secret',
      { 'auth.oauth.providers': { github: { type: 'github', isShared: false, clientId: 'id', allowSignIn: true } } },
      'OAuth provider github uses its own keys: its client secret is required.',
    ],
    ['an email server without host', { 'emails.server': { isShared: false } }, 'The email server needs a host.'],
    [
      'an email server with a bad port',
      { 'emails.server': { isShared: false, host: 'smtp.example.com', port: 70000 } },
      'The email server needs a port between 0 and 65535.',
    ],
    [
      'an email server without username',
      { 'emails.server': { isShared: false, host: 'h', port: 25 } },
      'The email server needs a username.',
    ],
    [
      'an email server without password',
      { 'emails.server': { isShared: false, host: 'h', port: 25, username: 'u' } },
      'The email server needs a password.',
    ],
    [
      'an email server without sender name',
      { 'emails.server': { isShared: false, host: 'h', port: 25, username: 'u', password: 'p' } },
      'The email server needs a sender name.',
    ],
    [
      'an email server with a bad sender email',
      { 'emails.server': { isShared: false, host: 'h', port: 25, username: 'u', password: 'p', senderName: 'S', senderEmail: 'nope' } },
      'The email server needs a valid sender email.',
    ],
    [
      'a domain with double dots',
      { 'domains.trustedDomains': { a: { baseUrl: 'https://a..example.com', handlerPath: '/handler' } } },
      'Invalid domain "https://a..example.com": the host may not start or end with a dot or contain two dots in a row.',
    ],
    [
      'a handler path without slash',
      { 'domains.trustedDomains': { a: { baseUrl: 'https://example.com', handlerPath: 'handler' } } },
      'The handler path of https://example.com must start with "/".',
    ],
  ])('refuses %s with its message, and saves nothing', async (_case, override, message) => {
    const response = await patchOverride(override);
    expect(response.status).toBe(400);
    expect(response.text).toBe(message);
    const config = JSON.parse(
      (await env.context.request({ url: '/api/v1/internal/config', headers: env.project.headers.admin })).body.config_string,
    );
    expect(config.emails.server.isShared).toBe(true);
    expect(config.auth.oauth.providers).toEqual({});
  });

  it('keeps a provider that was enabled and then disabled listed with allowSignIn false', async () => {
    const project = await env.context.createProject();
    const provider = { type: 'github', isShared: false, clientId: 'id', clientSecret: 'secret', allowSignIn: true };
    await patchOverride({ 'auth.oauth.providers.github': provider }, project.headers.admin);
    const off = await patchOverride({ 'auth.oauth.providers.github.allowSignIn': false }, project.headers.admin);
    expect(JSON.parse(off.body.config_string).auth.oauth.providers.github).toMatchObject({ clientId: 'id', allowSignIn: false });
    const admin = await env.context.request({ url: '/api/v1/internal/projects/current', headers: project.headers.admin });
    expect(admin.body.config.enabled_oauth_providers).toEqual([]);
  });
});

describe('POST /internal/send-test-email', () => {
  const send = (port: number) =>
    env.context.request({
      method: 'POST',
      url: '/api/v1/internal/send-test-email',
      headers: env.project.headers.admin,
      payload: {
        recipient_email: 'owner@example.com',
        email_config: { host: '127.0.0.1', port, username: 'u', password: 'p', sender_name: 'Test', sender_email: 'test@example.com' },
      },
    });

  it('delivers through the given server', async () => {
    const response = await send(sink.port);
    expect(response.body).toEqual({ success: true });
    const message = await sink.waitFor((captured) => captured.to.includes('owner@example.com'));
    expect(message.subject).toBe('Test email');
  });

  it('reports the server error text', async () => {
    const response = await send(1);
    expect(response.body.success).toBe(false);
    expect(response.body.error_message).toMatch(/ECONNREFUSED|connect/i);
  });
});
