import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * End users' API keys in a real Chromium against the platform on real Postgres: with the features off, the
 * team page and the user page say so in a plain note (no alert); with team keys on, a key is created (its full
 * value shown once, then listed by its last four), revoked behind a confirmation (the server has it revoked);
 * team keys turned off meanwhile turn a creation into the same note; axe light and dark.
 */
const env = withDashboardInChromium();

describe('the dashboard in Chromium: team API keys', () => {
  it('notes the feature off, creates a key shown once, and revokes it', { timeout: 180_000 }, async () => {
    const shot = screenshots('dashboard-team-api-keys');
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 800 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Keys Co', { newTeam: 'Keys team' });
    const { services } = env.platform.context;
    const setKeys = async (enabled: { user: boolean; team: boolean }) => {
      await services.projects.forget(projectId);
      const project = (await services.projects.find(projectId))!;
      await services.projects.update(project.id, {
        configOverride: { ...project.config_override, 'apiKeys.enabled.user': enabled.user, 'apiKeys.enabled.team': enabled.team },
      });
    };
    const adminGet = async (path: string) => {
      const { admin } = await env.platform.apiHeadersFor(projectId);
      const response = await fetch(`${env.platform.url}${path}`, { headers: admin });
      expect(response.status, path).toBe(200);
      return (await response.json()) as { items: Array<{ id: string }>; manually_revoked_at_millis?: number };
    };
    await setKeys({ user: false, team: false });
    const user = await services.users.create(
      (await services.projects.find(projectId))!,
      { display_name: 'Key Holder', primary_email: `holder-${randomUUID().slice(0, 8)}@keys.test`, primary_email_verified: true },
      'server',
    );

    // The user page: user API keys off is a note, not an error.
    await page.goto(`${env.platform.url}/dashboard/projects/${projectId}/users/${user.id}`);
    const userKeys = page.getByRole('region', { name: 'API keys', exact: true });
    await expect.poll(() => userKeys.textContent(), { timeout: 15_000 }).toBe('API keysUser API keys are not enabled for this project.');
    expect(await userKeys.getByRole('alert').count()).toBe(0);

    // A team's page: team API keys off, the same.
    await page.getByRole('link', { name: 'Teams', exact: true }).click();
    await page.getByLabel('Team name', { exact: true }).fill('Deployers');
    await page.getByRole('button', { name: 'Create team' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Deployers');
    const teamId = new URL(page.url()).pathname.split('/').at(-1)!;
    const teamKeys = page.getByRole('region', { name: 'API keys', exact: true });
    await expect.poll(() => teamKeys.getByText('Team API keys are not enabled for this project.').isVisible()).toBe(true);
    expect(await teamKeys.getByRole('alert').count()).toBe(0);
    await shot(page, 'not-enabled');
    await expectAccessible(page, 'the team page with team API keys off');

    // Turned on: a key created, its value shown once, then listed by its last four.
    await setKeys({ user: false, team: true });
    await page.reload();
    await teamKeys.getByLabel('Key description', { exact: true }).fill('CI deploy');
    await teamKeys.getByRole('button', { name: 'Create key' }).click();
    const fresh = teamKeys.getByRole('region', { name: 'New team API key' });
    await expect.poll(() => fresh.locator('code').textContent()).toMatch(/^sk_/);
    const value = (await fresh.locator('code').textContent())!;
    const list = teamKeys.getByRole('list', { name: 'Team API keys' });
    await expect.poll(() => list.getByRole('listitem').textContent()).toContain(`CI deploy …${value.slice(-4)}`);
    expect(await list.getByRole('listitem').textContent()).toContain('never expires');
    await shot(page, 'created');
    await expectAccessible(page, 'the team page with a new API key');
    await fresh.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.getByText(value).count()).toBe(0);

    // Revoked behind a confirmation: Cancel keeps it, Revoke key revokes it on the server.
    const listed = await adminGet(`/api/v1/team-api-keys?team_id=${teamId}`);
    const keyId = listed.items[0]!.id;
    await list.getByRole('button', { name: 'Revoke CI deploy' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this API key?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await adminGet(`/api/v1/team-api-keys/${keyId}?team_id=${teamId}`)).manually_revoked_at_millis).toBe(undefined);
    await list.getByRole('button', { name: 'Revoke CI deploy' }).click();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(() => list.getByRole('listitem').textContent()).toMatch(/revoked \d{4}-/);
    expect(await list.getByRole('button', { name: 'Revoke CI deploy' }).count()).toBe(0);
    expect(typeof (await adminGet(`/api/v1/team-api-keys/${keyId}?team_id=${teamId}`)).manually_revoked_at_millis).toBe('number');
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await shot(page, 'revoked-dark');
    await expectAccessible(page, 'the team page with a revoked key, dark');

    // Turned off while the page is open: creating says so in the note, not as an error.
    await setKeys({ user: false, team: false });
    await teamKeys.getByLabel('Key description', { exact: true }).fill('Too late');
    await teamKeys.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => teamKeys.getByLabel('Key description', { exact: true }).count()).toBe(0);
    expect(await teamKeys.textContent()).toContain('Team API keys are not enabled for this project.');
    expect(await teamKeys.getByRole('alert').count()).toBe(0);
  });
});
