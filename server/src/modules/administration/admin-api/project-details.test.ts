import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { adminTokenHeaders, ensureInternalProject, newDashboardUser } from '@gatehouse/testing/internal-project';
import { withTestContext } from '@gatehouse/testing/test-context';
import type { Project } from '../../../tenancy/project.ts';

/**
 * The dashboard details of a project (docs/protocol/entities.md AdminProject): its four logos, its setup-wizard
 * status and choices, and `require_email_verification`, written on create and update.
 */
const env = withTestContext();
let internal: Project;
let internalKey: string;

beforeAll(async () => {
  const { project, keys } = await ensureInternalProject(env.context, { publishable_client_key: true });
  internal = project;
  internalKey = keys.publishable_client_key as string;
});

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH';
const call = (method: Method, url: string, headers: Headers, payload?: object) =>
  env.context.request({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

async function newOwner() {
  const { token, team, client } = await newDashboardUser(env.context, internal, internalKey, 'Owner');
  return { token, teamId: team.id, client };
}
type Owner = Awaited<ReturnType<typeof newOwner>>;

const createProject = (owner: Owner, body: object = {}) =>
  call('POST', '/internal/projects', owner.client, { display_name: 'Dash project', owner_team_id: owner.teamId, ...body });
const requiresVerification = async (admin: Headers) =>
  JSON.parse((await call('GET', '/internal/config', admin)).body.config_string).onboarding.requireEmailVerification;

const pixel = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const logos = {
  logo_url: 'https://cdn.example.com/logo.png',
  logo_full_url: 'http://cdn.example.com/logo-full.svg',
  logo_dark_mode_url: pixel,
  logo_full_dark_mode_url: 'https://cdn.example.com/logo-full-dark.svg',
};
const noLogos = { logo_url: null, logo_full_url: null, logo_dark_mode_url: null, logo_full_dark_mode_url: null };
const state = {
  selected_config_choice: 'create-new',
  selected_apps: ['authentication', 'emails', 'api-keys'],
  selected_sign_in_methods: ['credential', 'magicLink', 'google'],
  selected_email_theme_id: null,
  selected_payments_country: 'US',
};
const otherState = {
  ...state,
  selected_config_choice: 'link-existing',
  selected_email_theme_id: 'dark',
  selected_payments_country: 'OTHER',
};

describe('logos and onboarding on POST /internal/projects', () => {
  it('starts with no logos, no setup choices, `completed`, and no email verification required', async () => {
    const owner = await newOwner();
    const created = await createProject(owner);
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ ...noLogos, onboarding_status: 'completed', onboarding_state: null });
    expect(await requiresVerification(adminTokenHeaders(created.body.id, owner.token))).toBe(false);
  });

  it('keeps every field given, as every read shows it', async () => {
    const owner = await newOwner();
    const created = await createProject(owner, {
      ...logos,
      onboarding_status: 'auth_setup',
      onboarding_state: state,
      require_email_verification: true,
      config: { credential_enabled: true },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ ...logos, onboarding_status: 'auth_setup', onboarding_state: state });
    expect(created.body.config.credential_enabled).toBe(true);
    const admin = adminTokenHeaders(created.body.id, owner.token);
    expect((await call('GET', '/internal/projects/current', admin)).body).toEqual(created.body);
    expect((await call('GET', '/internal/projects', owner.client)).body.items).toEqual([created.body]);
    expect(await requiresVerification(admin)).toBe(true);
  });

  it('refuses bad logos, statuses and setup choices with SCHEMA_ERROR, and creates nothing', async () => {
    const owner = await newOwner();
    for (const body of invalidDetails) expectError(await createProject(owner, body), 400, 'SCHEMA_ERROR');
    expect((await call('GET', '/internal/projects', owner.client)).body.items).toEqual([]);
  });
});

describe('logos and onboarding on PATCH /internal/projects/current', () => {
  it('sets every field, keeps what a later change does not name, and clears the logos and choices with null', async () => {
    const owner = await newOwner();
    const project = (await createProject(owner)).body;
    const admin = adminTokenHeaders(project.id, owner.token);
    const patched = await call('PATCH', '/internal/projects/current', admin, {
      ...logos,
      onboarding_status: 'domain_setup',
      onboarding_state: otherState,
    });
    expect(patched.status, patched.text).toBe(200);
    const expected = {
      ...project,
      ...logos,
      onboarding_status: 'domain_setup',
      onboarding_state: otherState,
    };
    expect(patched.body).toEqual(expected);
    expect((await call('GET', '/internal/projects/current', admin)).body).toEqual(expected);

    const one = await call('PATCH', '/internal/projects/current', admin, {
      logo_url: 'https://cdn.example.com/v2.png',
      onboarding_status: 'welcome',
    });
    expect(one.body).toEqual({ ...expected, logo_url: 'https://cdn.example.com/v2.png', onboarding_status: 'welcome' });

    const cleared = await call('PATCH', '/internal/projects/current', admin, {
      ...noLogos,
      onboarding_state: null,
      onboarding_status: 'completed',
    });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toEqual({ ...project, ...noLogos, onboarding_status: 'completed', onboarding_state: null });
    expect((await call('GET', '/internal/projects/current', admin)).body).toEqual(cleared.body);
  });

  it('takes a logo of exactly 1,000,000 characters', async () => {
    const owner = await newOwner();
    const admin = adminTokenHeaders((await createProject(owner)).body.id, owner.token);
    const longest = `https://cdn.example.com/${'a'.repeat(1_000_000 - 24)}`;
    expect(longest).toHaveLength(1_000_000);
    const patched = await call('PATCH', '/internal/projects/current', admin, { logo_full_url: longest });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.logo_full_url).toBe(longest);
  });

  it('refuses bad logos, statuses and setup choices with SCHEMA_ERROR, and changes nothing', async () => {
    const owner = await newOwner();
    const project = (await createProject(owner, { ...logos, onboarding_status: 'welcome', onboarding_state: state })).body;
    const admin = adminTokenHeaders(project.id, owner.token);
    for (const body of invalidDetails) expectError(await call('PATCH', '/internal/projects/current', admin, body), 400, 'SCHEMA_ERROR');
    expect((await call('GET', '/internal/projects/current', admin)).body).toEqual(project);
    expect(await requiresVerification(admin)).toBe(false);
  });
});

describe('require_email_verification', () => {
  it('restricts users without a verified primary email while on, and lifts it when off again', async () => {
    const owner = await newOwner();
    const created = await createProject(owner);
    const admin = adminTokenHeaders(created.body.id, owner.token);
    const project = (await env.context.services.projects.find(created.body.id)) as Project;
    const { users } = env.context.services;
    const unverified = await users.create(project, { primary_email: `u-${randomUUID()}@example.com` }, 'server');
    const verified = await users.create(
      project,
      { primary_email: `v-${randomUUID()}@example.com`, primary_email_verified: true },
      'server',
    );
    const restriction = async (id: string) => {
      const response = await call('GET', `/users/${id}`, admin);
      expect(response.status, response.text).toBe(200);
      return { is_restricted: response.body.is_restricted, restricted_reason: response.body.restricted_reason };
    };
    const free = { is_restricted: false, restricted_reason: null };
    expect(await restriction(unverified.id)).toEqual(free);

    const on = await call('PATCH', '/internal/projects/current', admin, { require_email_verification: true });
    expect(on.status, on.text).toBe(200);
    expect(on.body.config).toEqual(created.body.config);
    expect(await requiresVerification(admin)).toBe(true);
    expect(await restriction(unverified.id)).toEqual({ is_restricted: true, restricted_reason: { type: 'email_not_verified' } });
    expect(await restriction(verified.id)).toEqual(free);

    // With a config change in the same request, both are written.
    const off = await call('PATCH', '/internal/projects/current', admin, {
      require_email_verification: false,
      config: { passkey_enabled: true },
    });
    expect(off.status, off.text).toBe(200);
    expect(off.body.config).toEqual({ ...created.body.config, passkey_enabled: true });
    expect(await requiresVerification(admin)).toBe(false);
    expect(await restriction(unverified.id)).toEqual(free);
  });

  it('set on creation, restricts the users of the new project from the start', async () => {
    const owner = await newOwner();
    const created = await createProject(owner, { require_email_verification: true });
    expect(created.status, created.text).toBe(201);
    const project = (await env.context.services.projects.find(created.body.id)) as Project;
    const user = await env.context.services.users.create(project, { primary_email: `n-${randomUUID()}@example.com` }, 'server');
    const read = await call('GET', `/users/${user.id}`, adminTokenHeaders(project.id, owner.token));
    expect(read.body).toMatchObject({ is_restricted: true, restricted_reason: { type: 'email_not_verified' } });
  });
});

/** Bodies whose new fields break the schema (each alone in an otherwise valid request). */
const invalidDetails: object[] = [
  { logo_url: 'ftp://cdn.example.com/logo.png' },
  { logo_full_url: 'not a url' },
  { logo_dark_mode_url: 'javascript:alert(1)' },
  { logo_full_dark_mode_url: `https://cdn.example.com/${'a'.repeat(1_000_000)}` },
  { logo_url: 42 },
  { onboarding_status: 'done' },
  { onboarding_status: null },
  { onboarding_state: 'create-new' },
  { onboarding_state: [] },
  { onboarding_state: { ...state, selected_config_choice: 'copy' } },
  { onboarding_state: { ...state, selected_sign_in_methods: ['facebook'] } },
  { onboarding_state: { ...state, selected_apps: ['Not An App'] } },
  { onboarding_state: { ...state, selected_payments_country: 'DE' } },
  { onboarding_state: { ...state, extra: true } },
  { onboarding_state: { selected_config_choice: 'create-new' } },
  { require_email_verification: 'yes' },
];

describe('is_production_mode on POST /internal/projects', () => {
  it('creates a project in production mode when its config passes the domain checks', async () => {
    const owner = await newOwner();
    const created = await createProject(owner, {
      is_production_mode: true,
      config: { domains: [{ domain: 'https://app.example.com', handler_path: '/handler' }] },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.is_production_mode).toBe(true);
    expect((await createProject(owner)).body.is_production_mode).toBe(false);
  });

  it('refuses one whose config fails them, with the message of turning it on, and creates nothing', async () => {
    const owner = await newOwner();
    const before = (await call('GET', '/internal/projects', owner.client)).body.items.length;
    for (const [config, message] of [
      [
        { allow_localhost: true },
        "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings\nFix it at /projects/new/domains",
      ],
      [
        { domains: [{ domain: 'http://app.example.com', handler_path: '/handler' }] },
        'Trusted domains should be HTTPS: http://app.example.com\nFix it at /projects/new/domains',
      ],
    ] as const) {
      const refused = await createProject(owner, { is_production_mode: true, config });
      expectError(refused, 400, 'PROJECT_CHANGE_REFUSED', { reason: 'production_mode_domains' });
      expect(refused.body.error).toBe(message);
      expect((await createProject(owner, { is_production_mode: false, config })).status).toBe(201);
    }
    expect((await call('GET', '/internal/projects', owner.client)).body.items.length).toBe(before + 2);
  });

  it('names the branch (main) and the config id, the same at every read and different per project', async () => {
    const first = await env.context.createProject();
    const second = await env.context.createProject();
    const read = async (project: typeof first) => (await call('GET', '/internal/projects/current', project.headers.admin)).body;
    const [a, again, b] = [await read(first), await read(first), await read(second)];
    expect(a.branch_id).toBe('main');
    expect(a.config.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(again.config.id).toBe(a.config.id);
    expect(b.config.id).not.toBe(a.config.id);
  });
});
