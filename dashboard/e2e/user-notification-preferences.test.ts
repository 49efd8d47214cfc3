import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * A user's email notification preferences on the user page in a real Chromium against the platform on real
 * Postgres: Transactional shown always on (not changeable), Marketing turned off and on again (each change on
 * the server); a change the server refuses (the user deleted meanwhile) put back with the server's message;
 * axe light and dark.
 */
const env = withDashboardInChromium();

describe('the dashboard in Chromium: notification preferences', () => {
  it("turns a user's marketing emails off and on, and puts back a refused change", { timeout: 180_000 }, async () => {
    const shot = screenshots('dashboard-notification-preferences');
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 800 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Prefs Co', { newTeam: 'Prefs team' });
    const { services } = env.platform.context;
    const project = (await services.projects.find(projectId))!;
    const user = await services.users.create(
      project,
      { display_name: 'Lin', primary_email: `lin-${randomUUID().slice(0, 8)}@prefs.test`, primary_email_verified: true },
      'server',
    );
    const onServer = async () => {
      const { admin } = await env.platform.apiHeadersFor(projectId);
      const response = await fetch(`${env.platform.url}/api/v1/emails/notification-preference/${user.id}`, { headers: admin });
      expect(response.status).toBe(200);
      const { items } = (await response.json()) as { items: Array<{ notification_category_name: string; enabled: boolean }> };
      return Object.fromEntries(items.map((item) => [item.notification_category_name, item.enabled]));
    };

    await page.goto(`${env.platform.url}/dashboard/projects/${projectId}/users/${user.id}`);
    const section = page.getByRole('region', { name: 'Email notifications' });
    const marketing = section.getByRole('checkbox', { name: 'Marketing', exact: true });
    const transactional = section.getByRole('checkbox', { name: 'Transactional (always on)', exact: true });
    await expect.poll(() => marketing.isChecked(), { timeout: 15_000 }).toBe(true);
    expect(await transactional.isChecked()).toBe(true);
    expect(await transactional.isDisabled()).toBe(true);

    await marketing.click();
    await expect.poll(onServer).toEqual({ Transactional: true, Marketing: false, 'Sign-in alerts': true });
    await expect.poll(() => marketing.isDisabled()).toBe(false);
    expect(await marketing.isChecked()).toBe(false);
    await shot(page, 'marketing-off');
    await expectAccessible(page, 'the user page with notification preferences');
    await marketing.click();
    await expect.poll(onServer).toEqual({ Transactional: true, Marketing: true, 'Sign-in alerts': true });
    await expect.poll(() => marketing.isDisabled()).toBe(false);

    // The user deleted meanwhile: the change is refused, put back, and the server's message shown.
    await services.users.delete(project, user.id);
    await marketing.click();
    await expect.poll(() => section.getByRole('alert').first().textContent()).toContain('The addressed user does not exist');
    await expect.poll(() => marketing.isChecked()).toBe(true);
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await shot(page, 'refused-dark');
    await expectAccessible(page, 'the user page with a refused preference change, dark');
  });
});
