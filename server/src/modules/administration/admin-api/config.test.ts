import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpSink, startSmtpSink } from '@gatehouse/testing/smtp-sink';
import { withTestContext } from '@gatehouse/testing/test-context';
import { schemaErrors } from '@gatehouse/testing/contract';

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

  it("answers a config in the shape of the spec's ProjectConfig schema, defaults and overrides alike", async () => {
    const own = await env.context.createProject();
    const rendered = async () =>
      JSON.parse((await env.context.request({ url: '/api/v1/internal/config', headers: own.headers.admin })).body.config_string);
    expect(schemaErrors('ProjectConfig', await rendered())).toBe('');
    await patchOverride(
      {
        'auth.oauth.providers.github': { type: 'github', isShared: false, clientId: 'id', clientSecret: 'secret', allowSignIn: true },
        'domains.trustedDomains.main': { baseUrl: 'https://app.example.com', handlerPath: '/handler' },
        'rbac.permissions.reader': { description: 'Reads', scope: 'team', containedPermissionIds: {} },
        'emails.server': {
          isShared: false,
          provider: 'smtp',
          host: 'smtp.example.com',
          port: 587,
          username: 'u',
          password: 'p',
          senderName: 'S',
          senderEmail: 's@example.com',
        },
      },
      own.headers.admin,
    );
    expect(schemaErrors('ProjectConfig', await rendered())).toBe('');
    expect(schemaErrors('ProjectConfig', { ...(await rendered()), unknownSection: {} })).not.toBe('');
  });

  it.each([
    ['not JSON', '{oops', 'config_override_string is not valid JSON.'],
    ['not an object', '[1, 2]', 'config_override_string must be a JSON object.'],
    ['a key reaching the prototype', '{"__proto__.polluted": true}', 'config_override_string may not use the key "__proto__".'],
    [
      'a nested prototype key',
      '{"auth": {"constructor": {"prototype": {"polluted": true}}}}',
      'config_override_string may not use the key "constructor".',
    ],
    ['a flag that is not a boolean', { 'auth.password.allowSignIn': 'yes' }, 'auth.password.allowSignIn must be true or false.'],
    ['email-first sign-in that is not a boolean', { 'auth.emailFirst': 'yes' }, 'auth.emailFirst must be true or false.'],
    ['email-first sign-in given as an object', { auth: { emailFirst: { on: true } } }, 'auth.emailFirst must be true or false.'],
    ['a section that is not an object', { 'auth.oauth.providers': [] }, 'auth.oauth.providers must be an object.'],
    [
      'an unknown account merge strategy',
      { 'auth.oauth.accountMergeStrategy': 'merge_all' },
      'auth.oauth.accountMergeStrategy must be one of link_method, raise_error, allow_duplicates.',
    ],
    [
      'an OAuth provider of an unknown type',
      { 'auth.oauth.providers.acme': { allowSignIn: true } },
      'OAuth provider acme has an unknown type "acme".',
    ],
    [
      'an OAuth provider with a setting of the wrong kind',
      { 'auth.oauth.providers.github': { allowSignIn: 'true' } },
      'auth.oauth.providers.github.allowSignIn must be true or false.',
    ],
    [
      'an OAuth provider with a client id (so its own keys) and no secret',
      { 'auth.oauth.providers.github': { clientId: 'id', allowSignIn: true } },
      'Client secret is missing',
    ],
    [
      'an OAuth provider with own keys and no client id',
      { 'auth.oauth.providers': { github: { type: 'github', isShared: false, allowSignIn: true } } },
      'Client ID is missing',
    ],
    [
      'an OAuth provider with own keys and no secret',
      { 'auth.oauth.providers': { github: { type: 'github', isShared: false, clientId: 'id', allowSignIn: true } } },
      'Client secret is missing',
    ],
    ['an email server without host', { 'emails.server': { isShared: false } }, 'Email host is missing'],
    [
      'an email server with a bad port',
      { 'emails.server': { isShared: false, host: 'smtp.example.com', port: 70000 } },
      'Email port must be a number between 0 and 65535',
    ],
    ['an email server without username', { 'emails.server': { isShared: false, host: 'h', port: 25 } }, 'Email username is missing'],
    [
      'an email server without password',
      { 'emails.server': { isShared: false, host: 'h', port: 25, username: 'u' } },
      'Email password is missing',
    ],
    [
      'an email server without sender name',
      { 'emails.server': { isShared: false, host: 'h', port: 25, username: 'u', password: 'p' } },
      'Email sender name is missing',
    ],
    [
      'an email server without sender email',
      { 'emails.server': { isShared: false, host: 'h', port: 25, username: 'u', password: 'p', senderName: 'S' } },
      'Email sender email is missing',
    ],
    [
      'an email server with a bad sender email',
      { 'emails.server': { isShared: false, host: 'h', port: 25, username: 'u', password: 'p', senderName: 'S', senderEmail: 'nope' } },
      'Email sender email is not a valid email',
    ],
    [
      'a domain with double dots',
      { 'domains.trustedDomains': { a: { baseUrl: 'https://a..example.com', handlerPath: '/handler' } } },
      'Invalid domain "https://a..example.com": the host may not start or end with a dot or contain two dots in a row.',
    ],
    [
      'a wildcard in the path of a domain',
      { 'domains.trustedDomains': { a: { baseUrl: 'https://example.com/*', handlerPath: '/handler' } } },
      'Invalid domain "https://example.com/*": wildcards are allowed only in the host.',
    ],
    [
      'a wildcard in the port of a domain',
      { 'domains.trustedDomains': { a: { baseUrl: 'https://example.com:*', handlerPath: '/handler' } } },
      'Invalid domain "https://example.com:*": wildcards are allowed only in the host.',
    ],
    [
      'a domain with a leading dot',
      { 'domains.trustedDomains': { a: { baseUrl: 'https://.example.com', handlerPath: '/handler' } } },
      'Invalid domain "https://.example.com": the host may not start or end with a dot or contain two dots in a row.',
    ],
    [
      'a domain with a trailing dot',
      { 'domains.trustedDomains': { a: { baseUrl: 'https://*.example.com.', handlerPath: '/handler' } } },
      'Invalid domain "https://*.example.com.": the host may not start or end with a dot or contain two dots in a row.',
    ],
    [
      'a domain that is not a string',
      { 'domains.trustedDomains': { a: { baseUrl: 42, handlerPath: '/handler' } } },
      'Invalid domain "42": it must be an http or https URL.',
    ],
    [
      'a domain longer than 300 characters',
      { 'domains.trustedDomains': { a: { baseUrl: `https://${'a'.repeat(300)}.com`, handlerPath: '/handler' } } },
      `Invalid domain "https://${'a'.repeat(300)}.com": it may be at most 300 characters long.`,
    ],
    [
      'a host with characters a domain cannot hold',
      { 'domains.trustedDomains': { a: { baseUrl: 'https://ex_ample.com', handlerPath: '/handler' } } },
      'Invalid domain "https://ex_ample.com": the host may hold only letters, digits, hyphens, dots and wildcards.',
    ],
    ['an unknown email theme', { 'emails.selectedThemeId': 'nope' }, 'Email theme nope does not exist.'],
    [
      'an email template with an unknown theme (issue #30)',
      { 'emails.templates.0b3b1d9e-6a2c-4d7f-9c7e-1a2b3c4d5e6f': { displayName: 'X', tsxSource: 'x', themeId: 'nope' } },
      'Email template 0b3b1d9e-6a2c-4d7f-9c7e-1a2b3c4d5e6f uses theme nope, which does not exist.',
    ],
    [
      'an email template whose theme id is not a string',
      { 'emails.templates.t1': { displayName: 'X', tsxSource: 'x', themeId: 7 } },
      'emails.templates.t1.themeId must be a theme id or false.',
    ],
    [
      'an email template without its source',
      { 'emails.templates.t1': { displayName: 'X' } },
      'emails.templates.t1.tsxSource must be a string.',
    ],
    ['an email theme that is not an object', { 'emails.themes.t1': 'dark' }, 'emails.themes.t1 must be an object.'],
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
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('accepts wildcard hosts, a port and a path in domains', async () => {
    const project = await env.context.createProject();
    const domains = {
      a: { baseUrl: 'https://*.example.com', handlerPath: '/handler' },
      b: { baseUrl: 'https://**.shop.example.com:8443/app', handlerPath: '/auth/handler' },
    };
    const response = await patchOverride({ 'domains.trustedDomains': domains }, project.headers.admin);
    expect(response.status, response.text).toBe(200);
    expect(JSON.parse(response.body.config_string).domains.trustedDomains).toEqual(domains);
  });

  it('lets a later entry win over an older nested one (re-enabling a disabled provider)', async () => {
    const project = await env.context.createProject();
    const provider = { type: 'github', isShared: false, clientId: 'id', clientSecret: 'secret', allowSignIn: true };
    await patchOverride({ 'auth.oauth.providers.github': provider }, project.headers.admin);
    await patchOverride({ 'auth.oauth.providers.github.allowSignIn': false }, project.headers.admin);
    const again = await patchOverride({ 'auth.oauth.providers.github': provider }, project.headers.admin);
    expect(JSON.parse(again.body.config_string).auth.oauth.providers.github.allowSignIn).toBe(true);
    const admin = await env.context.request({ url: '/api/v1/internal/projects/current', headers: project.headers.admin });
    expect(admin.body.config.enabled_oauth_providers).toEqual([{ id: 'github' }]);
    // A merged (undotted) section sets only what it names, and still wins over the older entries it names.
    await patchOverride({ 'auth.password.allowSignIn': false, 'auth.otp.allowSignIn': true }, project.headers.admin);
    const merged = await patchOverride({ auth: { password: { allowSignIn: true } } }, project.headers.admin);
    const { auth } = JSON.parse(merged.body.config_string);
    expect([auth.password.allowSignIn, auth.otp.allowSignIn]).toEqual([true, true]);
  });

  it('keeps a provider that was enabled and then disabled listed with allowSignIn false', async () => {
    const project = await env.context.createProject();
    const provider = { type: 'github', isShared: false, clientId: 'id', clientSecret: 'secret', allowSignIn: true };
    await patchOverride({ 'auth.oauth.providers.github': provider }, project.headers.admin);
    const off = await patchOverride({ 'auth.oauth.providers.github.allowSignIn': false }, project.headers.admin);
    expect(JSON.parse(off.body.config_string).auth.oauth.providers.github).toMatchObject({ clientId: 'id', allowSignIn: false });
    const admin = await env.context.request({ url: '/api/v1/internal/projects/current', headers: project.headers.admin });
    expect(admin.body.config.enabled_oauth_providers).toEqual([]);
    expect(admin.body.config.oauth_providers).toEqual([
      { provider_config_id: 'github', id: 'github', type: 'standard', enabled: false, client_id: 'id', client_secret: 'secret' },
    ]);
  });
});

describe('POST /internal/send-test-email', () => {
  const send = (port: number, headers = env.project.headers.admin, host = '127.0.0.1') =>
    env.context.request({
      method: 'POST',
      url: '/api/v1/internal/send-test-email',
      headers,
      payload: {
        recipient_email: 'owner@example.com',
        email_config: { host, port, username: 'u', password: 'p', sender_name: 'Test', sender_email: 'test@example.com' },
      },
    });
  const notDelivered = 'The email could not be delivered through this email server: check its host, port, username and password.';

  it('delivers through the given server (on loopback: the project allows localhost)', async () => {
    const local = await env.context.createProject({ 'domains.allowLocalhost': true });
    const response = await send(sink.port, local.headers.admin);
    expect(response.body).toEqual({ success: true });
    const message = await sink.waitFor((captured) => captured.to.includes('owner@example.com'));
    expect(message.subject).toBe('Test email');
  });

  it('reports one sentence for a closed port and a peer that is not an SMTP server, never its answer (issue #30)', async () => {
    const local = await env.context.createProject({ 'domains.allowLocalhost': true });
    // A Redis-like peer that greets with its own error line.
    const peer = createServer((socket) => socket.end('-NOAUTH Authentication required.\r\n'));
    await new Promise<void>((done) => peer.listen(0, '127.0.0.1', done));
    try {
      const banner = await send((peer.address() as AddressInfo).port, local.headers.admin);
      const closed = await send(1, local.headers.admin);
      expect(banner.body).toEqual({ success: false, error_message: notDelivered });
      expect(closed.body).toEqual(banner.body);
    } finally {
      await new Promise((done) => peer.close(done));
    }
  });
});
