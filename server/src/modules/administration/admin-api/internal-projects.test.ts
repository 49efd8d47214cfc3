import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { withTestContext } from '@gatehouse/testing/test-context';
import type { Project } from '../../../tenancy/project.ts';
import { adminTokenHeaders, ensureInternalProject, newDashboardUser } from '@gatehouse/testing/internal-project';

/**
 * Dashboard projects (docs/protocol/endpoints.md §25, docs/protocol/overview.md §4): the internal user's list, creation and transfer
 * of projects (client access on `internal`), and the admin view of the current project.
 */
const env = withTestContext();
let internal: Project;
let internalKey: string;
let internalAdminKey: string;

beforeAll(async () => {
  const { project, keys } = await ensureInternalProject(env.context, { publishable_client_key: true, super_secret_admin_key: true });
  internal = project;
  internalKey = keys.publishable_client_key as string;
  internalAdminKey = keys.super_secret_admin_key as string;
});

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, headers: Headers, payload?: object) =>
  env.context.request({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

/** A dashboard user (of `internal`) with a team of their own. */
async function newOwner(name = 'Owner') {
  const { user, token, team, client } = await newDashboardUser(env.context, internal, internalKey, name);
  return { id: user.id, token, teamId: team.id, client };
}
type Owner = Awaited<ReturnType<typeof newOwner>>;

/** Client headers of a signed-in user of an ordinary project (not `internal`), and a team of theirs. */
async function outsider() {
  const { users, signIn, teams } = env.context.services;
  const user = await users.create(env.project.project, { display_name: 'Outsider' }, 'server');
  const { access_token } = await signIn.signIn(env.project.project, user);
  const team = await teams.create(env.project.project, { display_name: 'Their team' }, user.id);
  return { teamId: team.id, client: { ...env.project.headers.client, 'x-stack-access-token': access_token } };
}

const createProject = (owner: Owner, body: object = {}) =>
  call('POST', '/internal/projects', owner.client, { display_name: 'Dash project', owner_team_id: owner.teamId, ...body });
const listedIds = async (owner: Owner) =>
  (await call('GET', '/internal/projects', owner.client)).body.items.map((p: { id: string }) => p.id);

describe('POST /internal/projects', () => {
  it('creates a project owned by the team, with the given legacy config and the default team roles', async () => {
    const owner = await newOwner();
    const created = await createProject(owner, {
      display_name: 'Shop',
      description: 'The shop',
      config: {
        credential_enabled: true,
        allow_localhost: true,
        domains: [{ domain: 'https://shop.example.com', handler_path: '/handler' }],
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      display_name: 'Shop',
      description: 'The shop',
      logo_url: null,
      logo_full_url: null,
      logo_dark_mode_url: null,
      logo_full_dark_mode_url: null,
      created_at_millis: expect.any(Number),
      is_production_mode: false,
      is_development_environment: false,
      owner_team_id: owner.teamId,
      onboarding_status: 'completed',
      onboarding_state: null,
      branch_id: 'main',
      config: {
        id: expect.any(String),
        allow_localhost: true,
        sign_up_enabled: true,
        credential_enabled: true,
        magic_link_enabled: false,
        passkey_enabled: false,
        client_team_creation_enabled: false,
        client_user_deletion_enabled: false,
        allow_user_api_keys: false,
        allow_team_api_keys: false,
        create_team_on_sign_up: false,
        oauth_providers: [],
        enabled_oauth_providers: [],
        domains: [{ domain: 'https://shop.example.com', handler_path: '/handler' }],
        email_config: { type: 'shared' },
        email_theme: '1df07ae6-abf3-4a40-83a5-a1a2cbe336ac',
        team_creator_default_permissions: [{ id: 'team_admin' }],
        team_member_default_permissions: [{ id: 'team_member' }],
        user_default_permissions: [],
        oauth_account_merge_strategy: 'link_method',
      },
    });
    expect(Math.abs(created.body.created_at_millis - Date.now())).toBeLessThan(60_000);
    const definitions = await call('GET', '/team-permission-definitions', adminTokenHeaders(created.body.id, owner.token));
    expect(definitions.status, definitions.text).toBe(200);
    const ids = definitions.body.items.map((definition: { id: string }) => definition.id);
    expect(ids).toEqual(expect.arrayContaining(['team_admin', 'team_member']));
    const current = await call('GET', '/internal/projects/current', adminTokenHeaders(created.body.id, owner.token));
    expect(current.body).toEqual(created.body);
  });

  it('answers EXPECTED_INTERNAL_PROJECT on another project, even with a user of that project', async () => {
    const { teamId, client: headers } = await outsider();
    expectError(
      await call('POST', '/internal/projects', headers, { display_name: 'X', owner_team_id: teamId }),
      401,
      'EXPECTED_INTERNAL_PROJECT',
    );
    expectError(await call('GET', '/internal/projects', headers), 401, 'EXPECTED_INTERNAL_PROJECT');
  });

  it('refuses (PROJECT_CHANGE_REFUSED) an owner team the user is not a member of, and creates nothing', async () => {
    const owner = await newOwner();
    const stranger = await newOwner('Stranger');
    const notMine = { reason: 'owner_team_not_allowed' };
    expectError(
      await call('POST', '/internal/projects', owner.client, { display_name: 'X', owner_team_id: stranger.teamId }),
      400,
      'PROJECT_CHANGE_REFUSED',
      notMine,
    );
    expectError(
      await call('POST', '/internal/projects', owner.client, { display_name: 'X', owner_team_id: randomUUID() }),
      400,
      'PROJECT_CHANGE_REFUSED',
      notMine,
    );
    expect(await listedIds(owner)).toEqual([]);
    expect(await listedIds(stranger)).toEqual([]);
  });
});

describe('GET /internal/projects', () => {
  it("lists only the projects owned by the user's teams, oldest first", async () => {
    const owner = await newOwner();
    const other = await newOwner('Other');
    const second = await env.context.services.teams.create(internal, { display_name: 'Second' }, owner.id);
    const first = (await createProject(owner, { display_name: 'First' })).body;
    const viaSecond = (await call('POST', '/internal/projects', owner.client, { display_name: 'Via second', owner_team_id: second.id }))
      .body;
    const foreign = (await createProject(other, { display_name: 'Foreign' })).body;
    const listed = await call('GET', '/internal/projects', owner.client);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toEqual({ items: [first, viaSecond], is_paginated: false });
    expect(await listedIds(other)).toEqual([foreign.id]);
  });
});

describe('POST /internal/projects/transfer', () => {
  it("moves the project to the new team: its members manage it, the old team's members no longer do", async () => {
    const owner = await newOwner();
    const oldMate = await newOwner('Old mate');
    await env.context.services.teams.addMember(internal, owner.teamId, oldMate.id);
    const newMate = await newOwner('New mate');
    await env.context.services.teams.addMember(internal, newMate.teamId, owner.id);
    const project = (await createProject(owner)).body;
    expect((await call('GET', '/internal/projects/current', adminTokenHeaders(project.id, oldMate.token))).status).toBe(200);

    const moved = await call('POST', '/internal/projects/transfer', owner.client, { project_id: project.id, new_team_id: newMate.teamId });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toEqual({ success: 'true' });
    expect(await listedIds(newMate)).toEqual([project.id]);
    expect(await listedIds(oldMate)).toEqual([]);
    const current = await call('GET', '/internal/projects/current', adminTokenHeaders(project.id, newMate.token));
    expect(current.status, current.text).toBe(200);
    expect(current.body.owner_team_id).toBe(newMate.teamId);
    expectError(
      await call('GET', '/internal/projects/current', adminTokenHeaders(project.id, oldMate.token)),
      401,
      'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN',
    );
  });

  it('answers PROJECT_NOT_FOUND for a project the user does not manage, and PROJECT_CHANGE_REFUSED for a team not theirs', async () => {
    const owner = await newOwner();
    const other = await newOwner('Other');
    const theirs = (await createProject(other)).body;
    const mine = (await createProject(owner)).body;
    const steal = await call('POST', '/internal/projects/transfer', owner.client, { project_id: theirs.id, new_team_id: owner.teamId });
    expectError(steal, 404, 'PROJECT_NOT_FOUND');
    expect(steal.body.details).toEqual({ project_id: theirs.id });
    expectError(
      await call('POST', '/internal/projects/transfer', owner.client, { project_id: randomUUID(), new_team_id: owner.teamId }),
      404,
      'PROJECT_NOT_FOUND',
    );
    expectError(
      await call('POST', '/internal/projects/transfer', owner.client, { project_id: mine.id, new_team_id: other.teamId }),
      400,
      'PROJECT_CHANGE_REFUSED',
      { reason: 'owner_team_not_allowed' },
    );
    expect(await listedIds(owner)).toEqual([mine.id]);
    expect(await listedIds(other)).toEqual([theirs.id]);
  });

  it('answers EXPECTED_INTERNAL_PROJECT on another project', async () => {
    const { client: headers } = await outsider();
    const response = await call('POST', '/internal/projects/transfer', headers, {
      project_id: env.project.project.id,
      new_team_id: randomUUID(),
    });
    expectError(response, 401, 'EXPECTED_INTERNAL_PROJECT');
  });
});

describe('GET, PATCH and DELETE /internal/projects/current', () => {
  it('reads the project with its admin key', async () => {
    const response = await call('GET', '/internal/projects/current', env.project.headers.admin);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ id: env.project.project.id, display_name: 'Test project', description: '', owner_team_id: null });
  });

  it('changes names, config booleans, domains and default permissions', async () => {
    const owner = await newOwner();
    const project = (await createProject(owner)).body;
    const admin = adminTokenHeaders(project.id, owner.token);
    const patched = await call('PATCH', '/internal/projects/current', admin, {
      display_name: 'Renamed',
      description: 'New words',
      config: {
        sign_up_enabled: false,
        magic_link_enabled: true,
        client_team_creation_enabled: true,
        domains: [{ domain: 'https://*.example.com', handler_path: '/auth' }],
        team_member_default_permissions: [],
        team_creator_default_permissions: [{ id: 'team_admin' }, { id: 'team_member' }],
      },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toEqual({
      ...project,
      display_name: 'Renamed',
      description: 'New words',
      config: {
        ...project.config,
        sign_up_enabled: false,
        magic_link_enabled: true,
        client_team_creation_enabled: true,
        domains: [{ domain: 'https://*.example.com', handler_path: '/auth' }],
        team_member_default_permissions: [],
        team_creator_default_permissions: [{ id: 'team_admin' }, { id: 'team_member' }],
      },
    });
    // A later change keeps what it does not name.
    const again = await call('PATCH', '/internal/projects/current', admin, { config: { credential_enabled: true } });
    expect(again.body).toEqual({ ...patched.body, config: { ...patched.body.config, credential_enabled: true } });
    expect((await call('GET', '/internal/projects/current', admin)).body).toEqual(again.body);
  });

  it('trusts a wildcard domain for callbacks and refuses malformed domains with plain 400', async () => {
    const owner = await newOwner();
    const project = (await createProject(owner, { config: { credential_enabled: true } })).body;
    const admin = adminTokenHeaders(project.id, owner.token);
    for (const domain of ['https://..example.com', 'ftp://x', 'https://example.com.', 'not a url']) {
      expectPlain(await call('PATCH', '/internal/projects/current', admin, { config: { domains: [{ domain, handler_path: '/h' }] } }), 400);
    }
    expect((await call('GET', '/internal/projects/current', admin)).body.config.domains).toEqual([]);

    const { keys } = await env.context.services.apiKeys.createKeySet({
      projectId: project.id,
      description: 'client',
      expiresAt: new Date(Date.now() + 3_600_000),
      keys: { publishable_client_key: true },
    });
    const client = {
      'x-stack-access-type': 'client',
      'x-stack-project-id': project.id,
      'x-stack-publishable-client-key': keys.publishable_client_key as string,
    };
    const reset = (callback_url: string) =>
      call('POST', '/auth/password/send-reset-code', client, { email: 'nobody@example.com', callback_url });
    expectError(await reset('https://app.example.com/reset'), 400, 'REDIRECT_URL_NOT_WHITELISTED');

    const patched = await call('PATCH', '/internal/projects/current', admin, {
      config: { domains: [{ domain: 'https://*.example.com', handler_path: '/handler' }] },
    });
    expect(patched.status, patched.text).toBe(200);
    const sent = await reset('https://app.example.com/reset');
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toEqual({ success: 'maybe, only if user with e-mail exists' });
    // `*` is one label: neither the bare domain nor another host is trusted.
    expectError(await reset('https://example.com/reset'), 400, 'REDIRECT_URL_NOT_WHITELISTED');
    expectError(await reset('https://app.example.org/reset'), 400, 'REDIRECT_URL_NOT_WHITELISTED');
  });

  it('deletes the project (its keys then name a missing project) but never `internal`', async () => {
    const doomed = await env.context.createProject();
    const deleted = await call('DELETE', '/internal/projects/current', doomed.headers.admin);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toEqual({ success: true });
    for (const headers of Object.values(doomed.headers)) {
      const response = await call('GET', '/internal/projects/current', headers);
      expectError(response, 400, 'CURRENT_PROJECT_NOT_FOUND');
    }

    const internalAdmin = {
      'x-stack-access-type': 'admin',
      'x-stack-project-id': 'internal',
      'x-stack-super-secret-admin-key': internalAdminKey,
    };
    expectError(await call('DELETE', '/internal/projects/current', internalAdmin), 400, 'PROJECT_CHANGE_REFUSED', {
      reason: 'internal_project_not_deletable',
    });
    expect(await env.context.services.projects.find('internal')).toBeDefined();
  });
});
