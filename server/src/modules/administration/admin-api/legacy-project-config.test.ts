import { describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { ensureInternalProject, newDashboardUser } from '@gatehouse/testing/internal-project';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';

/**
 * The legacy (dashboard) config of `/internal/projects/current` (docs/protocol/entities.md AdminProject): OAuth
 * providers, the email server and theme, read from and written to the config tree, with the
 * validation of the config override and its messages.
 */
const env = withTestContext();

type Headers = Record<string, string>;
const patchProject = (project: TestProject, config: object) =>
  env.context.request({ method: 'PATCH', url: '/api/v1/internal/projects/current', headers: project.headers.admin, payload: { config } });
const readProject = async (project: TestProject) =>
  (await env.context.request({ url: '/api/v1/internal/projects/current', headers: project.headers.admin })).body;
const renderedConfig = async (headers: Headers) =>
  JSON.parse((await env.context.request({ url: '/api/v1/internal/config', headers })).body.config_string);
const patchOverride = (project: TestProject, override: object) =>
  env.context.request({
    method: 'PATCH',
    url: '/api/v1/internal/config/override/project',
    headers: project.headers.admin,
    payload: { config_override_string: JSON.stringify(override) },
  });

const github = { id: 'github', type: 'standard', client_id: 'gh-id', client_secret: 'gh-secret' } as const;

describe('oauth_providers of the legacy config', () => {
  it('lists every provider; one enabled and then disabled stays listed with enabled false', async () => {
    const project = await env.context.createProject();
    const on = await patchProject(project, { oauth_providers: [github, { id: 'google', type: 'shared' }] });
    expect(on.status, on.text).toBe(200);
    expect(on.body.config.oauth_providers).toEqual([
      { provider_config_id: 'github', id: 'github', type: 'standard', enabled: true, client_id: 'gh-id', client_secret: 'gh-secret' },
      { provider_config_id: 'google', id: 'google', type: 'shared', enabled: true },
    ]);
    expect(on.body.config.enabled_oauth_providers).toEqual([{ id: 'github' }, { id: 'google' }]);

    const off = await patchProject(project, {
      oauth_providers: [
        { ...github, enabled: false },
        { id: 'google', type: 'shared' },
      ],
    });
    expect(off.status, off.text).toBe(200);
    expect(off.body.config.oauth_providers[0]).toEqual({
      provider_config_id: 'github',
      id: 'github',
      type: 'standard',
      enabled: false,
      client_id: 'gh-id',
      client_secret: 'gh-secret',
    });
    expect(off.body.config.enabled_oauth_providers).toEqual([{ id: 'google' }]);
    expect((await readProject(project)).config).toEqual(off.body.config);
    const client = await env.context.request({ url: '/api/v1/projects/current', headers: project.headers.client });
    expect(client.body.config.enabled_oauth_providers).toEqual([{ id: 'google' }]);
    expect((await renderedConfig(project.headers.admin)).auth.oauth.providers.github).toEqual({
      type: 'github',
      isShared: false,
      clientId: 'gh-id',
      clientSecret: 'gh-secret',
      allowSignIn: false,
      allowConnectedAccounts: true,
    });

    // The list is the whole roster: a provider left out is removed.
    const only = await patchProject(project, { oauth_providers: [{ id: 'google', type: 'shared', enabled: false }] });
    expect(only.body.config.oauth_providers).toEqual([{ provider_config_id: 'google', id: 'google', type: 'shared', enabled: false }]);
    expect(only.body.config.enabled_oauth_providers).toEqual([]);
  });

  it("keeps a provider's config key and the settings the legacy view does not show", async () => {
    const project = await env.context.createProject();
    const saved = await patchOverride(project, {
      'auth.oauth.providers.work-google': {
        type: 'google',
        isShared: false,
        clientId: 'old',
        clientSecret: 'old-secret',
        allowSignIn: true,
        allowConnectedAccounts: false,
        customCallbackUrl: 'https://app.example.com/callback',
      },
    });
    expect(saved.status, saved.text).toBe(200);
    const patched = await patchProject(project, {
      oauth_providers: [{ id: 'google', type: 'standard', enabled: false, client_id: 'new', client_secret: 'new-secret' }],
    });
    expect(patched.body.config.oauth_providers).toEqual([
      { provider_config_id: 'work-google', id: 'google', type: 'standard', enabled: false, client_id: 'new', client_secret: 'new-secret' },
    ]);
    expect((await renderedConfig(project.headers.admin)).auth.oauth.providers).toEqual({
      'work-google': {
        type: 'google',
        isShared: false,
        clientId: 'new',
        clientSecret: 'new-secret',
        allowSignIn: false,
        allowConnectedAccounts: false,
        customCallbackUrl: 'https://app.example.com/callback',
      },
    });
  });

  it('wins over older dotted entries of the config override (re-enabling a provider disabled there)', async () => {
    const project = await env.context.createProject();
    await patchOverride(project, { 'auth.oauth.providers.github': { type: 'github', isShared: false, clientId: 'a', clientSecret: 'b' } });
    await patchOverride(project, { 'auth.oauth.providers.github.allowSignIn': false });
    expect((await readProject(project)).config.oauth_providers[0].enabled).toBe(false);
    const again = await patchProject(project, { oauth_providers: [github] });
    expect(again.body.config.oauth_providers).toEqual([expect.objectContaining({ id: 'github', enabled: true, client_id: 'gh-id' })]);
    expect((await readProject(project)).config.enabled_oauth_providers).toEqual([{ id: 'github' }]);
  });

  it.each([
    ['a standard provider without client id', [{ id: 'github', type: 'standard', client_secret: 's' }], 'Client ID is missing'],
    ['a standard provider with an empty client id', [{ ...github, client_id: '' }], 'Client ID is missing'],
    ['a standard provider without client secret', [{ id: 'github', type: 'standard', client_id: 'i' }], 'Client secret is missing'],
    ['a disabled standard provider without keys', [{ id: 'github', type: 'standard', enabled: false }], 'Client ID is missing'],
  ])('refuses %s with its message, and saves nothing', async (_case, oauth_providers, message) => {
    const project = await env.context.createProject();
    const response = await patchProject(project, { oauth_providers, sign_up_enabled: false });
    expectPlain(response, 400);
    expect(response.text).toBe(message);
    expect((await readProject(project)).config).toMatchObject({ oauth_providers: [], sign_up_enabled: true });
  });

  it('refuses a provider listed twice', async () => {
    const project = await env.context.createProject();
    const response = await patchProject(project, { oauth_providers: [github, { id: 'github', type: 'shared' }] });
    expectError(response, 400, 'PROJECT_CHANGE_REFUSED', { reason: 'oauth_provider_listed_twice' });
    expect(response.body.error).toBe('OAuth provider github is listed twice.');
  });
});

const smtp = {
  type: 'standard',
  host: 'smtp.example.com',
  port: 587,
  username: 'u',
  password: 'p',
  sender_name: 'Shop',
  sender_email: 'no-reply@example.com',
};

describe('email_config and email_theme of the legacy config', () => {
  it('reads and writes the email server: standard with its fields, then shared again', async () => {
    const project = await env.context.createProject();
    expect((await readProject(project)).config.email_config).toEqual({ type: 'shared' });
    const own = await patchProject(project, { email_config: smtp });
    expect(own.status, own.text).toBe(200);
    expect(own.body.config.email_config).toEqual(smtp);
    expect((await renderedConfig(project.headers.admin)).emails.server).toEqual({
      isShared: false,
      provider: 'smtp',
      host: 'smtp.example.com',
      port: 587,
      username: 'u',
      password: 'p',
      senderName: 'Shop',
      senderEmail: 'no-reply@example.com',
    });
    const shared = await patchProject(project, { email_config: { type: 'shared' } });
    expect(shared.body.config.email_config).toEqual({ type: 'shared' });
    expect((await renderedConfig(project.headers.admin)).emails.server).toEqual({ isShared: true });
  });

  const without = (field: keyof typeof smtp) => Object.fromEntries(Object.entries(smtp).filter(([key]) => key !== field));
  it.each([
    ['no host', without('host'), 'Email host is missing'],
    ['an empty host', { ...smtp, host: '' }, 'Email host is missing'],
    ['no port', without('port'), 'Email port must be a number between 0 and 65535'],
    ['port 65536', { ...smtp, port: 65536 }, 'Email port must be a number between 0 and 65535'],
    ['port -1', { ...smtp, port: -1 }, 'Email port must be a number between 0 and 65535'],
    ['no username', without('username'), 'Email username is missing'],
    ['no password', without('password'), 'Email password is missing'],
    ['no sender name', without('sender_name'), 'Email sender name is missing'],
    ['no sender email', without('sender_email'), 'Email sender email is missing'],
    ['a malformed sender email', { ...smtp, sender_email: 'no-reply' }, 'Email sender email is not a valid email'],
  ])('refuses a standard email server with %s, and saves nothing', async (_case, email_config, message) => {
    const project = await env.context.createProject();
    const response = await patchProject(project, { email_config });
    expectPlain(response, 400);
    expect(response.text).toBe(message);
    expect((await readProject(project)).config.email_config).toEqual({ type: 'shared' });
  });

  it('accepts port 0 and selects only an existing email theme', async () => {
    const project = await env.context.createProject();
    expect((await patchProject(project, { email_config: { ...smtp, port: 0 } })).body.config.email_config.port).toBe(0);
    const builtIn = (await readProject(project)).config.email_theme;
    const unknown = await patchProject(project, { email_theme: 'no-such-theme' });
    expectPlain(unknown, 400);
    expect(unknown.text).toBe('Email theme no-such-theme does not exist.');
    const themeId = '0f8e7c55-5d0a-4a36-9b5e-2c0f1b6c7a11';
    await patchOverride(project, { [`emails.themes.${themeId}`]: { displayName: 'Brand', tsxSource: 'export function EmailTheme() {}' } });
    const chosen = await patchProject(project, { email_theme: themeId });
    expect(chosen.status, chosen.text).toBe(200);
    expect(chosen.body.config.email_theme).toBe(themeId);
    expect((await patchProject(project, { email_theme: builtIn })).body.config.email_theme).toBe(builtIn);
  });
});

describe('POST /internal/projects with a legacy config', () => {
  it('creates with providers and an email server, and refuses (creating nothing) what the rules refuse', async () => {
    const { project: internal, keys } = await ensureInternalProject(env.context, { publishable_client_key: true });
    const owner = await newDashboardUser(env.context, internal, keys.publishable_client_key as string, 'Legacy');
    const create = (config: object) =>
      env.context.request({
        method: 'POST',
        url: '/api/v1/internal/projects',
        headers: owner.client,
        payload: { display_name: 'Legacy', owner_team_id: owner.team.id, config },
      });
    const refused = await create({ oauth_providers: [{ id: 'github', type: 'standard', client_id: 'i' }] });
    expectPlain(refused, 400);
    expect(refused.text).toBe('Client secret is missing');
    const listed = await env.context.request({ url: '/api/v1/internal/projects', headers: owner.client });
    expect(listed.body.items).toEqual([]);

    const created = await create({ oauth_providers: [github], email_config: smtp });
    expect(created.status, created.text).toBe(201);
    expect(created.body.config).toMatchObject({
      oauth_providers: [{ provider_config_id: 'github', id: 'github', type: 'standard', enabled: true }],
      email_config: smtp,
    });
  });
});
