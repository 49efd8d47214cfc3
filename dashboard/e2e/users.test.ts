import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * The users pages in a real Chromium against the platform on real Postgres: create a user, edit the
 * profile and the metadata (invalid JSON refused before sending), impersonate them (the example app
 * opens signed in as them, and the session shows as an impersonation), revoke that session, search,
 * sort and page through the list, delete the user.
 */
const env = withDashboardInChromium();

describe('the dashboard in Chromium: users', () => {
  it('creates, edits, impersonates, finds, pages through and deletes users', { timeout: 180_000 }, async () => {
    const shot = screenshots('dashboard-users');
    const browserContext = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    const page = await browserContext.newPage();
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Users Co', { newTeam: 'Users team' });
    await env.platform.serveAppFor(projectId);
    // A new project opens on Connect your app.
    expect(new URL(page.url()).pathname).toBe(`/dashboard/projects/${projectId}/connect`);
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await expect.poll(() => page.getByText('No users yet.').isVisible()).toBe(true);
    await expectAccessible(page, 'the empty users page');

    // Create a user: the dialog sends it, the user's page opens.
    const email = `ada-${randomUUID().slice(0, 8)}@users.test`;
    await page.getByRole('button', { name: 'Create user' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Email', { exact: true }).fill(email);
    await dialog.getByLabel('Display name', { exact: true }).fill('Ada');
    await dialog.getByLabel('Password (optional)', { exact: true }).fill('ada-password-1');
    await shot(page, 'create-user');
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Ada');
    const userId = new URL(page.url()).pathname.split('/').at(-1)!;
    await shot(page, 'user-page');
    await expect.poll(() => page.getByRole('region', { name: 'Contact channels' }).textContent()).toContain(email);
    await expectAccessible(page, 'the user page');

    // Profile: the new name shows at once and stays after a reload.
    await page.getByLabel('Display name', { exact: true }).fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Ada Lovelace');
    await expect.poll(() => page.getByText('Profile saved.').isVisible()).toBe(true);

    // Metadata: invalid JSON is refused in the page; valid JSON is saved.
    const server = page.getByLabel('Server metadata', { exact: true });
    await server.fill('{"plan": ');
    await page.getByRole('button', { name: 'Save server metadata' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/^Not valid JSON/);
    await server.fill('{"plan": "pro", "seats": 3}');
    await page.getByRole('button', { name: 'Save server metadata' }).click();
    await expect.poll(() => page.getByText('Server metadata saved.').isVisible()).toBe(true);
    await page.getByLabel('Client metadata', { exact: true }).fill('{"theme": "dark"}');
    await page.getByRole('button', { name: 'Save client metadata' }).click();
    await expect.poll(() => page.getByText('Client metadata saved.').isVisible()).toBe(true);
    await page.reload();
    await expect.poll(() => page.getByLabel('Server metadata', { exact: true }).inputValue()).toContain('"plan": "pro"');
    await expect.poll(() => page.getByLabel('Client metadata', { exact: true }).inputValue()).toContain('"theme": "dark"');

    // Impersonate: the example app opens in a new tab signed in as the user.
    const [app] = await Promise.all([browserContext.waitForEvent('page'), page.getByRole('button', { name: 'Impersonate' }).click()]);
    await expect.poll(() => app.getByTestId('greeting').textContent(), { timeout: 20_000 }).toBe('Hello, Ada Lovelace');
    await shot(app, 'impersonated-app');
    await app.close();
    const sessions = page.getByRole('region', { name: 'Sessions' });
    await expect.poll(() => sessions.textContent()).toContain('Impersonation · created');
    await shot(page, 'impersonation-session');
    await sessions.getByRole('button', { name: 'Revoke' }).first().click();
    await expect.poll(() => sessions.getByText('No active sessions.').isVisible()).toBe(true);
    await page.reload();
    await expect.poll(() => page.getByRole('region', { name: 'Sessions' }).getByText('No active sessions.').isVisible()).toBe(true);

    // The list: 30 more users make two pages of 25; search, sort and paging.
    const project = (await env.platform.context.services.projects.find(projectId))!;
    for (let n = 1; n <= 30; n += 1) {
      await env.platform.context.services.users.create(
        project,
        { display_name: `Member ${String(n).padStart(2, '0')}`, country_code: n % 3 === 0 ? 'US' : 'GB' },
        'server',
      );
    }
    // The overview counts them and lists the newest (charts drawn by recharts).
    await page.getByRole('link', { name: 'Overview', exact: true }).click();
    await expect.poll(() => page.getByTestId('total-users').textContent()).toBe('31');
    await expect.poll(() => page.getByRole('region', { name: 'Recently signed up' }).textContent()).toContain('Member 30');
    await expect.poll(() => page.locator('.recharts-wrapper').count()).toBe(3);
    await shot(page, 'overview');
    await expectAccessible(page, 'the overview');
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    const rows = page.getByRole('table', { name: 'Users' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(25);
    await expect.poll(() => rows.first().textContent()).toContain('Member 30');
    await shot(page, 'users-list');
    await expectAccessible(page, 'the users list');
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => rows.count()).toBe(6);
    expect(new URL(page.url()).searchParams.get('cursor')).toBeTruthy();
    await expect.poll(() => page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(() => rows.count()).toBe(25);
    await page.getByLabel('Sort', { exact: true }).selectOption('oldest');
    await expect.poll(() => rows.first().textContent()).toContain('Ada Lovelace');
    await page.getByRole('button', { name: /Signed up/ }).click();
    await expect.poll(() => rows.first().textContent()).toContain('Member 30');
    await page.getByLabel('Search users', { exact: true }).fill('lovelace');
    await expect.poll(() => rows.count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('q')).toBe('lovelace');
    await page.getByLabel('Search users', { exact: true }).fill('nobody-here');
    await expect.poll(() => page.getByText('No user matches “nobody-here”.').isVisible()).toBe(true);
    await shot(page, 'search-no-match');

    // Delete, behind a confirmation.
    await page.goto(`${env.platform.url}/dashboard/projects/${projectId}/users/${userId}`);
    await page.getByRole('button', { name: 'Delete user' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete user' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/dashboard/projects/${projectId}/users`);
    await expect.poll(() => rows.count()).toBe(25);
    expect(await page.getByRole('link', { name: 'Ada Lovelace' }).count()).toBe(0);
    await browserContext.close();
  });
});
