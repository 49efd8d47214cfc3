import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * The "User API keys" / "Team API keys" switches of the Authentication page in a real Chromium against the
 * platform on real Postgres: a switch shows its new state while the server is still answering, the server's
 * config has it (`apiKeys.enabled.user`), and the user page's "not enabled" note is gone when the owner goes
 * back to it in the same tab; the team switch likewise for the team page; a change the server refuses
 * (the project's config has another broken rule) is put back and the server's message shown verbatim.
 */
const env = withDashboardInChromium();

describe('the dashboard in Chromium: user and team API keys switches', () => {
  it('turns user and team API keys on and off from the Authentication page', { timeout: 180_000 }, async () => {
    const shot = screenshots('dashboard-api-key-switches');
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 768 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Switch Co', { newTeam: 'Switch team' });
    const { services } = env.platform.context;
    const configOf = async () => {
      await services.projects.forget(projectId);
      return (await services.projects.find(projectId))!;
    };
    const project = await configOf();
    const user = await services.users.create(
      project,
      { display_name: 'Key Holder', primary_email: `holder-${randomUUID().slice(0, 8)}@keys.test`, primary_email_verified: true },
      'server',
    );
    const nav = (name: string) => page.getByRole('navigation', { name: 'Project pages' }).getByRole('link', { name, exact: true });
    const keysSection = page.getByRole('region', { name: 'API keys', exact: true });

    // Off (the default): the user page says so in its note.
    await page.goto(`${env.platform.url}/dashboard/projects/${projectId}/users/${user.id}`);
    const userNote = keysSection.getByText('User API keys are not enabled for this project.', { exact: true });
    await expect.poll(() => userNote.isVisible(), { timeout: 15_000 }).toBe(true);

    // On from the Authentication page: checked at once, while the server is held.
    await nav('Authentication').click();
    const switches = page.getByRole('region', { name: 'API keys for users and teams' });
    const userKeys = switches.getByLabel('User API keys', { exact: true });
    const teamKeys = switches.getByLabel('Team API keys', { exact: true });
    await expect.poll(() => userKeys.isChecked(), { timeout: 15_000 }).toBe(false);
    expect(await teamKeys.isChecked()).toBe(false);
    await shot(page, 'off');
    await expectAccessible(page, 'the Authentication page with API keys off');
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/v1/internal/projects/current', async (route) => {
      if (route.request().method() === 'PATCH') await held;
      await route.continue();
    });
    await userKeys.click();
    await expect.poll(() => userKeys.isChecked()).toBe(true);
    expect((await configOf()).config.apiKeys.enabled.user).toBe(false);
    release();
    await expect.poll(async () => (await configOf()).config.apiKeys.enabled.user).toBe(true);
    await page.unroute('**/api/v1/internal/projects/current');
    expect((await configOf()).config.apiKeys.enabled.team).toBe(false);
    expect(await switches.getByRole('alert').count()).toBe(0);

    // Back on the user page (same tab, its earlier answer was "not enabled"): the note is gone.
    await nav('Users').click();
    await page.getByRole('link', { name: 'Key Holder' }).click();
    await expect.poll(() => keysSection.getByText('No API keys.', { exact: true }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await userNote.count()).toBe(0);
    await shot(page, 'user-keys-on');

    // Team keys: a team page's note goes away the same way.
    await nav('Teams').click();
    await page.getByLabel('Team name', { exact: true }).fill('Deployers');
    await page.getByRole('button', { name: 'Create team' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Deployers');
    await expect.poll(() => keysSection.getByText('Team API keys are not enabled for this project.').isVisible()).toBe(true);
    await nav('Authentication').click();
    await teamKeys.click();
    await expect.poll(async () => (await configOf()).config.apiKeys.enabled.team).toBe(true);
    await page.goBack();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Deployers');
    await expect.poll(() => keysSection.getByLabel('Key description', { exact: true }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await keysSection.getByText('Team API keys are not enabled for this project.').count()).toBe(0);

    // Refused: the project's config now breaks another rule (own Google keys without a client id, written
    // behind the dashboard's back), so the server refuses every change: the switch is put back, its message shown.
    const current = await configOf();
    await services.projects.update(current.id, {
      configOverride: { ...current.config_override, 'auth.oauth.providers.google': { type: 'google', isShared: false, allowSignIn: true } },
    });
    await services.projects.forget(projectId);
    // The page's cached project (from the switch above) is older than the refetch threshold, as when an owner
    // comes back a moment later: the page is drawn from it first, then from the refetched one.
    await page.waitForTimeout(1_500);
    await nav('Authentication').click();
    await expect.poll(() => userKeys.isChecked(), { timeout: 15_000 }).toBe(true);
    // The OAuth providers form follows the refetched project (it was first drawn from the earlier answer).
    await expect.poll(() => page.getByRole('group', { name: 'Google' }).isVisible()).toBe(true);
    expect(await page.getByLabel('Google keys', { exact: true }).inputValue()).toBe('standard');
    await userKeys.click();
    await expect.poll(() => switches.getByRole('alert').textContent()).toBe('Client ID is missing');
    await expect.poll(() => userKeys.isChecked()).toBe(true);
    expect((await configOf()).config.apiKeys.enabled.user).toBe(true);
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await shot(page, 'refused-dark');
    await expectAccessible(page, 'the Authentication page with a refused switch, dark');
  });
});
