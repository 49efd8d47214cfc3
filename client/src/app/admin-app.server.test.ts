import { beforeAll, describe, expect, it } from 'vitest';
import { ensureInternalProject } from '@gatehouse/testing/internal-project';
import { withTestContext } from '@gatehouse/testing/test-context';
import { InvalidSuperSecretAdminKeyError } from '../errors.ts';
import { createMemoryTokenStore } from '../token-store/memory-token-store.ts';
import { createAdminApp } from './admin-app.ts';
import { createClientApp } from './client-app.ts';

/** The admin app against the real server over HTTP, with the admin key and with a dashboard user's token. */
const env = withTestContext({ listen: true });
let internalKey: string;

beforeAll(async () => {
  const { keys } = await ensureInternalProject(env.context, { publishable_client_key: true });
  internalKey = keys.publishable_client_key as string;
});

const newAdminApp = (superSecretAdminKey = env.project.keys.super_secret_admin_key) =>
  createAdminApp({ baseUrl: env.baseUrl, projectId: env.project.project.id, superSecretAdminKey });

describe('createAdminApp against the server', () => {
  it('reads and updates the project and its config with the super secret admin key', async () => {
    const admin = newAdminApp();
    expect(await admin.project.get()).toMatchObject({ id: env.project.project.id, display_name: 'Test project' });
    const updated = await admin.project.update({ display_name: 'Renamed', description: 'For the SDK', config: { sign_up_enabled: false } });
    expect(updated).toMatchObject({ display_name: 'Renamed', description: 'For the SDK', config: { sign_up_enabled: false } });
    expect((await admin.project.get()).display_name).toBe('Renamed');

    expect(await admin.config.get()).toMatchObject({ auth: { allowSignUp: false, otp: { allowSignIn: false } } });
    const rendered = await admin.config.override({ 'auth.otp.allowSignIn': true, 'auth.allowSignUp': true });
    expect(rendered).toMatchObject({ auth: { allowSignUp: true, otp: { allowSignIn: true } } });
    expect((await admin.project.get()).config).toMatchObject({ sign_up_enabled: true, magic_link_enabled: true });
  });

  it('manages key sets and permission definitions, reads metrics, and does what the server app does', async () => {
    const admin = newAdminApp();
    const keySet = await admin.keySets.create({
      description: 'ci',
      expires_at_millis: Date.now() + 60_000,
      has_secret_server_key: true,
    });
    expect(keySet.secret_server_key).toMatch(/^ssk_/);
    expect((await admin.keySets.list()).map((listed) => listed.id)).toContain(keySet.id);
    expect((await admin.keySets.revoke(keySet.id)).manually_revoked_at_millis).toEqual(expect.any(Number));

    const definition = await admin.teamPermissionDefinitions.create({ id: 'read_reports', description: 'Reports' });
    expect(definition).toEqual({ id: 'read_reports', description: 'Reports', contained_permission_ids: [] });
    expect((await admin.teamPermissionDefinitions.list()).map((listed) => listed.id)).toContain('read_reports');
    await admin.teamPermissionDefinitions.delete('read_reports');

    const user = await admin.users.create({ primary_email: 'metrics@example.com' });
    const metrics = await admin.getMetrics();
    expect(metrics.total_users).toBeGreaterThanOrEqual(1);
    expect(metrics.recently_registered.map((recent) => recent.id)).toContain(user.id);
  });

  it('administers a project owned by a dashboard user with their access token', async () => {
    const { services } = env.context;
    const internal = (await services.projects.find('internal'))!;
    const owner = await services.users.create(internal, { display_name: 'Owner' }, 'server');
    const tokens = await services.signIn.signIn(internal, owner);
    const team = await services.teams.create(internal, { display_name: 'Owner team' }, owner.id);
    const dashboard = createClientApp({
      baseUrl: env.baseUrl,
      projectId: 'internal',
      publishableClientKey: internalKey,
      tokenStore: createMemoryTokenStore({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token }),
    });
    const user = await dashboard.getUser({ or: 'throw' });
    const project = await user.createProject({ display_name: 'Dashboard project', owner_team_id: team.id });
    expect((await user.listOwnedProjects()).map((owned) => owned.id)).toEqual([project.id]);

    const admin = createAdminApp({ baseUrl: env.baseUrl, projectId: project.id, adminAccessToken: () => dashboard.getAccessToken() });
    expect(await admin.project.get()).toMatchObject({ id: project.id, owner_team_id: team.id });
    expect((await admin.project.update({ display_name: 'Renamed by token' })).display_name).toBe('Renamed by token');
  });

  it('refuses a wrong super secret admin key with the typed error', async () => {
    await expect(newAdminApp('sak_wrong').project.get()).rejects.toBeInstanceOf(InvalidSuperSecretAdminKeyError);
  });
});
