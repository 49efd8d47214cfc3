import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * An owner's first visit to the dashboard, in a real Chromium against the platform on real Postgres:
 * sign up on the internal project's handler pages, create projects (with a new owner team and the
 * onboarding choices), rename one (and see a refused change rolled back), transfer it, delete it
 * behind its confirmation; the shell's switcher, themes, keyboard skip link, error and 404 pages.
 */
const env = withDashboardInChromium();

describe('the dashboard in Chromium: shell and projects', () => {
  it('takes an owner from sign-up through creating, renaming, transferring and deleting projects', { timeout: 180_000 }, async () => {
    const shot = screenshots('dashboard-projects');
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 768 }, colorScheme: 'light' });
    const base = env.platform.url;
    await signUpOwner(page, base, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    await expect.poll(() => page.getByText('You have no projects yet.').isVisible()).toBe(true);
    await shot(page, 'no-projects');
    await expectAccessible(page, 'the empty projects page');

    // Create: the form refuses a missing name, then makes the team and the project with the chosen sign-in methods.
    await page.getByRole('link', { name: 'Create project' }).click();
    await page.getByRole('button', { name: 'Create project' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Give the project a name.');
    await page.getByRole('checkbox', { name: 'Google' }).check();
    await shot(page, 'create-form');
    await expectAccessible(page, 'the create-project form');
    await page.getByLabel('Project name', { exact: true }).fill('Acme Store');
    await page.getByLabel('New team name', { exact: true }).fill('Acme team');
    await page.getByRole('button', { name: 'Create project' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/dashboard\/projects\/[0-9a-f-]{36}\//);
    const first = new URL(page.url()).pathname.split('/')[3]!;
    // A new project opens on "Connect your app"; its settings are one link away.
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/dashboard/projects/${first}/connect`);
    await page.getByRole('link', { name: 'Project settings' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Acme Store');
    const admin = await env.platform.context.services.projects.find(first);
    expect(admin?.display_name).toBe('Acme Store');
    // The onboarding choices became its config: password on, Google with the shared keys.
    expect(admin?.config.auth.password.allowSignIn).toBe(true);
    expect(admin?.config.auth.oauth.providers.google).toMatchObject({ type: 'google' });
    await shot(page, 'project-settings');
    await expectAccessible(page, 'the project settings');

    // The switcher lists it and moves between the project and the list.
    await expect.poll(() => page.getByLabel('Project', { exact: true }).inputValue()).toBe(first);
    await page.getByLabel('Project', { exact: true }).selectOption({ label: 'All projects' });
    await expect.poll(() => page.getByRole('link', { name: 'Acme Store' }).isVisible()).toBe(true);
    const second = await createProject(page, 'Second Store', { newTeam: 'Second team' });
    await page.getByLabel('Project', { exact: true }).selectOption({ label: 'Acme Store' });
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/dashboard/projects/${first}/overview`);
    await page.getByRole('link', { name: 'Project settings' }).click();

    // Rename: saved on the server and shown in the switcher.
    await page.getByLabel('Project name', { exact: true }).fill('Acme Shop');
    await page.getByLabel('Description', { exact: true }).fill('Our shop');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Saved.');
    await expect.poll(() => page.getByRole('option', { name: 'Acme Shop' }).count()).toBe(1);
    await expect.poll(async () => (await env.platform.context.services.projects.find(first))?.description).toBe('Our shop');

    // A change the server refuses (a logo that is no URL) shows its error and rolls the page back.
    await page.getByLabel('Project name', { exact: true }).fill('Refused name');
    await page.getByLabel('Logo (square)', { exact: true }).fill('not-a-url');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('alert').count()).toBe(1);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Acme Shop');
    await shot(page, 'refused-change-rolled-back');
    await page.reload();
    await expect.poll(() => page.getByLabel('Project name', { exact: true }).inputValue()).toBe('Acme Shop');

    // Transfer to the owner's other team.
    await page.getByLabel('New owner team', { exact: true }).selectOption({ label: 'Second team' });
    await page.getByRole('button', { name: 'Transfer' }).click();
    await expect.poll(() => page.getByText('Owned by Second team.', { exact: false }).isVisible()).toBe(true);

    // Dark theme, kept across reloads.
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(11, 18, 32)');
    await page.reload();
    await expect.poll(() => page.getByLabel('Theme', { exact: true }).inputValue()).toBe('dark');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Acme Shop');
    await shot(page, 'settings-dark');
    await expectAccessible(page, 'the project settings in the dark theme');
    await page.getByLabel('Theme', { exact: true }).selectOption('light');

    // Keyboard: the first Tab reaches the skip link, which moves focus to the page.
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');

    // Delete: the confirmation asks for the name; then the project is gone.
    await page.getByRole('button', { name: 'Delete project' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByRole('button', { name: 'Delete forever' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Project name to confirm', { exact: true }).fill('Acme Shop');
    await shot(page, 'delete-confirmation');
    await expectAccessible(page, 'the delete confirmation');
    await dialog.getByRole('button', { name: 'Delete forever' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard/projects');
    await expect.poll(() => page.getByRole('link', { name: 'Second Store' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Acme Shop' }).count()).toBe(0);
    expect(await env.platform.context.services.projects.find(first)).toBeUndefined();
    await shot(page, 'after-delete');

    // A project the owner cannot reach shows an error state; an unknown URL a not-found page.
    await page.goto(`${base}/dashboard/projects/${first}/settings`);
    await expect.poll(() => page.getByText('This page could not be loaded').isVisible()).toBe(true);
    await shot(page, 'error-state');
    await page.goto(`${base}/dashboard/nowhere`);
    await expect.poll(() => page.getByRole('heading', { name: 'Page not found' }).isVisible()).toBe(true);
    // A deep link loads directly.
    await page.goto(`${base}/dashboard/projects/${second}/settings`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Second Store');
  });
});
