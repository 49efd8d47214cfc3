import { describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { withTestContext } from '@gatehouse/testing/test-context';

/**
 * The config override by level (docs/protocol/endpoints.md, internal config): GET and PUT of the override, reset-keys,
 * and the config source. Here the three levels name the one override of the project.
 */
const env = withTestContext();

type Headers = Record<string, string>;
const getOverride = (headers: Headers, level = 'environment') =>
  env.context.request({ url: `/api/v1/internal/config/override/${level}`, headers });
const putOverride = (headers: Headers, body: object, level = 'branch') =>
  env.context.request({ method: 'PUT', url: `/api/v1/internal/config/override/${level}`, headers, payload: body });
const resetKeys = (headers: Headers, keys: unknown, level = 'environment') =>
  env.context.request({ method: 'POST', url: `/api/v1/internal/config/override/${level}/reset-keys`, headers, payload: { keys } });
const getSource = (headers: Headers) => env.context.request({ url: '/api/v1/internal/config/source', headers });
const unlink = (headers: Headers) => env.context.request({ method: 'DELETE', url: '/api/v1/internal/config/source', headers });
const rendered = async (headers: Headers) =>
  JSON.parse((await env.context.request({ url: '/api/v1/internal/config', headers })).body.config_string);

const github = { type: 'github', isShared: false, clientId: 'id', clientSecret: 'secret', allowSignIn: true };
const pushed = {
  type: 'pushed-from-github',
  owner: 'acme',
  repo: 'app',
  branch: 'main',
  commit_hash: '0123abcd',
  config_file_path: 'stack.config.ts',
  workflow_path: '.github/workflows/config.yml',
} as const;

describe('GET/PUT /internal/config/override/{level}', () => {
  it('answers the stored override (not the rendered config) at every level, to server and admin access', async () => {
    const { headers } = await env.context.createProject();
    const before = await getOverride(headers.admin);
    expect(before.status).toBe(200);
    const patched = await env.context.request({
      method: 'PATCH',
      url: '/api/v1/internal/config/override/environment',
      headers: headers.admin,
      payload: { config_override_string: JSON.stringify({ 'auth.password.allowSignIn': true }) },
    });
    expect(patched.status).toBe(200);
    const expected = { ...JSON.parse(before.body.config_string), 'auth.password.allowSignIn': true };
    for (const level of ['project', 'branch', 'environment']) {
      for (const access of [headers.admin, headers.server]) {
        const response = await getOverride(access, level);
        expect(response.status, level).toBe(200);
        expect(JSON.parse(response.body.config_string)).toEqual(expected);
      }
    }
    expectError(await getOverride(headers.client), 401, 'INSUFFICIENT_ACCESS_TYPE');
    expectError(await getOverride(headers.admin, 'organization'), 400, 'SCHEMA_ERROR');
  });

  it('replaces the whole override with PUT (what it leaves out falls back to the default) and answers the rendered config', async () => {
    const { headers } = await env.context.createProject();
    await putOverride(headers.admin, { config_string: JSON.stringify({ 'teams.allowClientTeamCreation': true }) });
    const replaced = await putOverride(
      headers.server,
      { config_string: JSON.stringify({ 'auth.password.allowSignIn': true, 'auth.oauth.providers.github': github }) },
      'environment',
    );
    expect(replaced.status, replaced.text).toBe(200);
    const config = JSON.parse(replaced.body.config_string);
    expect(config.auth.password.allowSignIn).toBe(true);
    expect(config.auth.oauth.providers.github.clientId).toBe('id');
    expect(config.teams.allowClientTeamCreation).toBe(false);
    expect(JSON.parse((await getOverride(headers.admin)).body.config_string)).toEqual({
      'auth.password.allowSignIn': true,
      'auth.oauth.providers.github': github,
    });
    expect((await rendered(headers.admin)).auth.password.allowSignIn).toBe(true);
  });

  it('refuses an invalid config in plain text and saves nothing', async () => {
    const { headers } = await env.context.createProject();
    await putOverride(headers.admin, { config_string: JSON.stringify({ 'auth.password.allowSignIn': true }) });
    const cases: Array<[string, string]> = [
      ['{"auth": ', 'config_string is not valid JSON.'],
      ['[1, 2]', 'config_string must be a JSON object.'],
      ['{"a.__proto__.b": 1}', 'config_string may not use the key "__proto__".'],
      [JSON.stringify({ 'auth.password.allowSignIn': 'yes' }), 'auth.password.allowSignIn must be true or false.'],
      [JSON.stringify({ 'auth.oauth.providers.github': { ...github, clientSecret: '' } }), 'Client secret is missing'],
    ];
    for (const [configString, message] of cases) {
      const response = await putOverride(headers.admin, { config_string: configString });
      expectPlain(response, 400);
      expect(response.text).toBe(message);
    }
    expect(JSON.parse((await getOverride(headers.admin)).body.config_string)).toEqual({ 'auth.password.allowSignIn': true });
    expectError(await putOverride(headers.admin, { config_string: '{}', source: { type: 'pushed-from-github' } }), 400, 'SCHEMA_ERROR');
    expectError(await putOverride(headers.admin, { config_override_string: '{}' }), 400, 'SCHEMA_ERROR');
    expectError(await putOverride(headers.client, { config_string: '{}' }), 401, 'INSUFFICIENT_ACCESS_TYPE');
  });
});

const unreadable = (headers: Headers, method: 'PUT' | 'POST', url: string) =>
  env.context.request({ method, url, headers: { ...headers, 'content-type': 'application/json' }, payload: '{"keys": [' });

it('refuses unreadable JSON bodies with BODY_PARSING_ERROR', async () => {
  const { headers } = await env.context.createProject();
  expectError(await unreadable(headers.admin, 'PUT', '/api/v1/internal/config/override/branch'), 400, 'BODY_PARSING_ERROR');
  expectError(await unreadable(headers.admin, 'POST', '/api/v1/internal/config/override/branch/reset-keys'), 400, 'BODY_PARSING_ERROR');
});

describe('POST /internal/config/override/{level}/reset-keys', () => {
  it('drops what the override says at each path and below (dotted or nested), falling back to the defaults', async () => {
    const { headers } = await env.context.createProject();
    await putOverride(headers.admin, {
      config_string: JSON.stringify({
        'auth.password.allowSignIn': true,
        'auth.oauth.providers.github': github,
        teams: { allowClientTeamCreation: true, createPersonalTeamOnSignUp: true },
      }),
    });
    const reset = await resetKeys(headers.admin, ['auth.oauth.providers.github', 'teams.allowClientTeamCreation', 'not.set.anywhere']);
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body).toEqual({ success: true });
    expect(JSON.parse((await getOverride(headers.admin)).body.config_string)).toEqual({
      'auth.password.allowSignIn': true,
      teams: { createPersonalTeamOnSignUp: true },
    });
    const config = await rendered(headers.admin);
    expect(config.auth.oauth.providers.github).toBeUndefined();
    expect(config.teams.allowClientTeamCreation).toBe(false);
    expect(config.teams.createPersonalTeamOnSignUp).toBe(true);
    expect((await resetKeys(headers.admin, ['auth'], 'branch')).status).toBe(200);
    expect(JSON.parse((await getOverride(headers.admin)).body.config_string)).toEqual({ teams: { createPersonalTeamOnSignUp: true } });
  });

  it('refuses the project level (plain 403), a reset that leaves an invalid config (plain 400), and non-admin access', async () => {
    const { headers } = await env.context.createProject();
    const server = {
      isShared: false,
      host: 'smtp.example.com',
      port: 587,
      username: 'u',
      password: 'p',
      senderName: 'S',
      senderEmail: 's@example.com',
    };
    await putOverride(headers.admin, {
      config_string: JSON.stringify({ 'emails.server': server, 'emails.server.host': 'mail.example.com' }),
    });
    const forbidden = await resetKeys(headers.admin, ['emails.server'], 'project');
    expectPlain(forbidden, 403);
    expect(forbidden.text).toBe('Keys can be reset only at the branch and environment levels.');
    const invalid = await resetKeys(headers.admin, ['emails.server.host']);
    expectPlain(invalid, 400);
    expect(invalid.text).toBe('Email host is missing');
    expect((await rendered(headers.admin)).emails.server.host).toBe('mail.example.com');
    expectError(await resetKeys(headers.server, ['emails.server']), 401, 'INSUFFICIENT_ACCESS_TYPE');
    expectError(await resetKeys(headers.admin, 'emails.server'), 400, 'SCHEMA_ERROR');
    expectError(await resetKeys(headers.admin, ['']), 400, 'SCHEMA_ERROR');
  });
});

describe('GET/DELETE /internal/config/source', () => {
  it('is unlinked until a PUT carries a source, keeps it across PUTs without one, and unlinks on DELETE', async () => {
    const { headers } = await env.context.createProject();
    expect((await getSource(headers.admin)).body).toEqual({ source: { type: 'unlinked' } });
    expect((await putOverride(headers.server, { config_string: '{}', source: pushed })).status).toBe(200);
    expect((await getSource(headers.admin)).body).toEqual({ source: pushed });
    expect((await putOverride(headers.admin, { config_string: '{}' })).status).toBe(200);
    expect((await getSource(headers.admin)).body).toEqual({ source: pushed });
    expect((await putOverride(headers.admin, { config_string: '{}', source: { type: 'pushed-from-unknown' } })).status).toBe(200);
    expect((await getSource(headers.admin)).body).toEqual({ source: { type: 'pushed-from-unknown' } });

    const unlinked = await unlink(headers.admin);
    expect(unlinked.status).toBe(200);
    expect(unlinked.body).toEqual({ success: true });
    expect((await getSource(headers.admin)).body).toEqual({ source: { type: 'unlinked' } });
    expect((await unlink(headers.admin)).status).toBe(200);
    expectError(await env.context.request({ url: '/api/v1/internal/config/source?all=1', headers: headers.admin }), 400, 'SCHEMA_ERROR');
    const unlinkWithQuery = await env.context.request({
      method: 'DELETE',
      url: '/api/v1/internal/config/source?x=1',
      headers: headers.admin,
    });
    expectError(unlinkWithQuery, 400, 'SCHEMA_ERROR');
    expectError(await getSource(headers.server), 401, 'INSUFFICIENT_ACCESS_TYPE');
    expectError(await unlink(headers.server), 401, 'INSUFFICIENT_ACCESS_TYPE');
  });

  it('keeps each project its own source', async () => {
    const first = await env.context.createProject();
    const second = await env.context.createProject();
    await putOverride(first.headers.admin, { config_string: '{}', source: pushed });
    expect((await getSource(second.headers.admin)).body).toEqual({ source: { type: 'unlinked' } });
  });
});
