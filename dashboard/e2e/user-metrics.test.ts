import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import type { UserWrite } from '../../server/src/modules/identity/users/user-writes.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * User metrics and the onboarding preview in a real Chromium against the platform on real Postgres:
 * the overview's user counts (user-counts: users and anonymous users) and charts, each panel with its
 * own error state when the platform's API cannot be reached and Try again once it can; a user's activity
 * over 30 days on their page (user-activity); requiring email verification on the authentication
 * page first lists the users it would restrict (preview-affected-users: the first 10 and the total),
 * Cancel changes nothing, confirming restricts them, turning it off is saved at once. axe-core on
 * every state, light and dark, 1024 px.
 */
const env = withDashboardInChromium();

describe('the dashboard in Chromium: user metrics and the onboarding preview', () => {
  it('shows user counts and activity, error states, and previews who requiring verification restricts', { timeout: 240_000 }, async () => {
    const shot = screenshots('dashboard-user-metrics');
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Metrics Co', { newTeam: 'Metrics team' });
    const configOf = async () => {
      env.platform.context.services.projects.forget(projectId);
      return (await env.platform.context.services.projects.find(projectId))!.config;
    };

    // With no users yet, the charts that would be empty say so instead.
    await page.goto(`${env.platform.url}/dashboard/projects/${projectId}/overview`);
    const countriesPanel = page.getByRole('region', { name: 'Countries' });
    await expect.poll(() => countriesPanel.getByText('No user has a known country yet.').isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('region', { name: 'Sign-up methods' }).getByText('No users yet.').isVisible()).toBe(true);
    expect(await page.getByRole('figure', { name: 'Users by country' }).count()).toBe(0);

    // With no users yet, requiring email verification restricts nobody: saved at once, no dialog.
    await page.getByRole('link', { name: 'Authentication', exact: true }).click();
    const require = page.getByRole('checkbox', { name: /^Require email verification/ });
    const dialog = page.getByRole('dialog');
    await expect.poll(() => require.isEnabled()).toBe(true);
    await require.click();
    await expect.poll(async () => (await configOf()).onboarding.requireEmailVerification).toBe(true);
    await expect.poll(() => require.isChecked()).toBe(true);
    expect(await dialog.isVisible()).toBe(false);
    await require.click();
    await expect.poll(async () => (await configOf()).onboarding.requireEmailVerification).toBe(false);
    await expect.poll(() => require.isEnabled()).toBe(true);

    const project = (await env.platform.context.services.projects.find(projectId))!;
    const create = (write: UserWrite) =>
      env.platform.context.services.users.create(project, write, write.is_anonymous ? 'anonymous' : 'server');
    const email = (label: string) => `${label}-${randomUUID().slice(0, 8)}@metrics.test`;
    await create({ primary_email: email('vera'), primary_email_verified: true, display_name: 'Vera', country_code: 'DE' });
    const una = await create({ primary_email: email('una'), primary_email_verified: false, display_name: 'Una', country_code: 'FR' });
    await create({ display_name: 'Nobody' });
    for (let n = 1; n <= 12; n += 1) {
      await create({ primary_email: email(`member${n}`), display_name: `Member ${String(n).padStart(2, '0')}` });
    }
    await create({ is_anonymous: true });
    const { server } = await env.platform.apiHeadersFor(projectId);

    // The overview: 15 users, 1 anonymous, three charts.
    await page.goto(`${env.platform.url}/dashboard/projects/${projectId}/overview`);
    await expect.poll(() => page.getByTestId('total-users').textContent()).toBe('15');
    await expect.poll(() => page.getByTestId('anonymous-users').textContent()).toBe('1');
    await expect.poll(() => page.getByTestId('sign-ups-30-days').textContent()).toBe('15');
    await expect.poll(() => page.locator('.recharts-wrapper').count()).toBe(3);
    expect(await countriesPanel.getByText('No user has a known country yet.').count()).toBe(0);
    await shot(page, 'overview');
    await expectAccessible(page, 'the overview');

    // The platform's API cannot be reached (the dashboard's own code still loads): every panel says so
    // on its own; Try again once it is back.
    await page.goto(`${env.platform.url}/dashboard/projects/${projectId}/users`);
    await expect.poll(() => page.getByRole('heading', { name: 'Users', level: 1 }).isVisible()).toBe(true);
    const unreachable = '**/api/v1/**';
    await page.route(unreachable, (route) => route.abort('connectionrefused'));
    await page.getByRole('link', { name: 'Overview', exact: true }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Loading total users…' }).isVisible()).toBe(true);
    const countsError = page.getByRole('alert').filter({ hasText: 'Could not load total users: The platform cannot be reached' });
    await expect.poll(() => countsError.isVisible(), { timeout: 60_000 }).toBe(true);
    const chartError = page
      .getByRole('region', { name: 'Daily sign-ups and active users' })
      .getByRole('alert')
      .filter({ hasText: 'Could not load the daily sign-ups and active users: The platform cannot be reached' });
    await expect.poll(() => chartError.isVisible(), { timeout: 60_000 }).toBe(true);
    await shot(page, 'overview-unreachable');
    await expectAccessible(page, 'the overview with its error states');
    await page.unroute(unreachable);
    await countsError.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => page.getByTestId('total-users').textContent()).toBe('15');
    await expect.poll(() => page.getByTestId('anonymous-users').textContent()).toBe('1');
    await chartError.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => page.locator('.recharts-wrapper').count()).toBe(3);
    expect(await page.getByRole('alert').count()).toBe(0);

    // A user's activity: the day of their latest activity (today, when they were created).
    await page.goto(`${env.platform.url}/dashboard/projects/${projectId}/users/${una.id}`);
    const activity = page.getByRole('region', { name: 'Activity' });
    await expect.poll(() => activity.getByTestId('active-days').textContent()).toBe('Active on 1 of the last 30 days.');
    const today = new Date().toISOString().slice(0, 10);
    const days = activity.getByRole('list', { name: 'Activity per day' }).getByRole('listitem');
    await expect.poll(() => days.count()).toBe(30);
    expect(await days.last().textContent()).toBe(`${today}: active`);
    expect(await days.first().textContent()).toMatch(/^\d{4}-\d{2}-\d{2}: not active$/);
    await shot(page, 'user-activity');
    await expectAccessible(page, 'the user page with activity');

    // Requiring email verification: the users it would restrict, listed before anything is saved.
    await page.getByRole('link', { name: 'Authentication', exact: true }).click();
    await expect.poll(() => require.isEnabled()).toBe(true);
    expect(await require.isChecked()).toBe(false);
    await require.click();
    await expect
      .poll(() => dialog.getByRole('paragraph').first().textContent())
      .toBe('14 existing users are restricted until they verify their email (the first 10 by sign-up):');
    const listed = dialog.getByRole('list', { name: 'Users who would be restricted' }).getByRole('listitem');
    expect(await listed.count()).toBe(10);
    expect(await listed.first().textContent()).toBe(`Una${una.primary_email} · no verified primary email`);
    expect(await listed.nth(1).textContent()).toBe('Nobodyno verified primary email');
    await shot(page, 'preview-affected-users');
    await expectAccessible(page, 'the affected users dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await require.isChecked()).toBe(false);
    expect((await configOf()).onboarding.requireEmailVerification).toBe(false);

    // Confirmed: saved, and Una is restricted for it.
    await require.click();
    await dialog.getByRole('button', { name: 'Require verification' }).click();
    await expect.poll(async () => (await configOf()).onboarding.requireEmailVerification).toBe(true);
    await expect.poll(() => require.isChecked()).toBe(true);
    const unaNow = await env.platform.context.request({ url: `/api/v1/users/${una.id}`, headers: server });
    expect(unaNow.body).toMatchObject({ is_restricted: true, restricted_reason: { type: 'email_not_verified' } });
    await shot(page, 'verification-required');

    // Turning it off restricts nobody: saved at once, no dialog.
    await require.click();
    await expect.poll(async () => (await configOf()).onboarding.requireEmailVerification).toBe(false);
    await expect.poll(() => require.isChecked()).toBe(false);
    expect(await dialog.isVisible()).toBe(false);

    // Dark, 1024 px: the overview and the dialog.
    await page.setViewportSize({ width: 1024, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await require.click();
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await expectAccessible(page, 'the affected users dialog, dark, 1024 px');
    await shot(page, 'preview-dark-1024');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('link', { name: 'Overview', exact: true }).click();
    await expect.poll(() => page.locator('.recharts-wrapper').count()).toBe(3);
    await expectAccessible(page, 'the overview, dark, 1024 px');
    await shot(page, 'overview-dark-1024');
    await page.close();
  });
});
