import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * A user's API keys on the user page in a real Chromium against the platform on real Postgres: a key created for the
 * user (its full value shown once, copied to the clipboard, and valid for that user on the server), listed by its last
 * four, revoked behind a confirmation (Cancel keeps it; then the server refuses the key as revoked); a creation the
 * server refuses (the user deleted meanwhile) shows the server's message; axe light and dark.
 */
const env = withDashboardInChromium();

describe('the dashboard in Chromium: user API keys', () => {
  it("creates a user's key shown once, copies it, and revokes it", { timeout: 180_000 }, async () => {
    const shot = screenshots('dashboard-user-api-keys');
    const context = await env.browser.newContext({
      viewport: { width: 1024, height: 800 },
      colorScheme: 'light',
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const page = await context.newPage();
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'User Keys Co', { newTeam: 'User keys team' });
    const { services } = env.platform.context;
    await services.projects.forget(projectId);
    const project = (await services.projects.find(projectId))!;
    await services.projects.update(project.id, { configOverride: { ...project.config_override, 'apiKeys.enabled.user': true } });
    await services.projects.forget(projectId);
    const tag = randomUUID().slice(0, 8);
    const ada = await services.users.create(project, { display_name: 'Ada', primary_email: `ada-${tag}@keys.test` }, 'server');
    const { admin, server } = await env.platform.apiHeadersFor(projectId);
    const check = async (value: string) => {
      const response = await fetch(`${env.platform.url}/api/v1/user-api-keys/check`, {
        method: 'POST',
        headers: server,
        body: JSON.stringify({ api_key: value }),
      });
      return { status: response.status, body: (await response.json()) as { user_id?: string; code?: string } };
    };

    await page.goto(`${env.platform.url}/dashboard/projects/${projectId}/users/${ada.id}`);
    const keys = page.getByRole('region', { name: 'API keys', exact: true });
    await expect.poll(() => keys.getByText('No API keys.').isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await keys.textContent()).toContain("Keys the user's own code calls the project's API with");

    // Created for this user: the full value shown once, copied, valid for Ada on the server, then listed by its last four.
    await keys.getByLabel('Key description', { exact: true }).fill('CLI on laptop');
    await keys.getByRole('button', { name: 'Create key' }).click();
    const fresh = keys.getByRole('region', { name: 'New user API key' });
    await expect.poll(() => fresh.locator('code').textContent()).toMatch(/^sk_/);
    const value = (await fresh.locator('code').textContent())!;
    await fresh.getByRole('button', { name: 'Copy the new key' }).click();
    await expect.poll(() => fresh.getByRole('status').textContent()).toBe('Copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
    const valid = await check(value);
    expect(valid.status).toBe(200);
    expect(valid.body.user_id).toBe(ada.id);
    const list = keys.getByRole('list', { name: 'User API keys' });
    await expect.poll(() => list.getByRole('listitem').textContent()).toContain(`CLI on laptop …${value.slice(-4)}`);
    expect(await list.getByRole('listitem').textContent()).toContain('never expires');
    // At 1024 px the page does not scroll sideways, even with the long value shown.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
    await shot(page, 'created');
    await expectAccessible(page, 'the user page with a new API key');
    await fresh.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.getByText(value).count()).toBe(0);

    // Revoked behind a confirmation: Cancel keeps it valid; Revoke key and the server refuses it as revoked.
    await list.getByRole('button', { name: 'Revoke CLI on laptop' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this API key?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await check(value)).status).toBe(200);
    await list.getByRole('button', { name: 'Revoke CLI on laptop' }).click();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(() => list.getByRole('listitem').textContent()).toMatch(/revoked \d{4}-/);
    expect(await list.getByRole('button', { name: 'Revoke CLI on laptop' }).count()).toBe(0);
    const revoked = await check(value);
    expect([revoked.status, revoked.body.code]).toEqual([401, 'API_KEY_REVOKED']);
    const listed = await fetch(`${env.platform.url}/api/v1/user-api-keys?user_id=${ada.id}`, { headers: admin });
    expect(
      ((await listed.json()) as { items: Array<{ manually_revoked_at_millis?: number }> }).items.map(
        (key) => typeof key.manually_revoked_at_millis,
      ),
    ).toEqual(['number']);
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await shot(page, 'revoked-dark');
    await expectAccessible(page, 'the user page with a revoked API key, dark');

    // The user deleted meanwhile: the creation is refused and the server's message shown as it is.
    await services.users.delete(project, ada.id);
    await keys.getByLabel('Key description', { exact: true }).fill('Too late');
    await keys.getByRole('button', { name: 'Create key' }).click();
    const refusal = await fetch(`${env.platform.url}/api/v1/user-api-keys`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ user_id: ada.id, description: 'Too late' }),
    });
    expect(refusal.status).toBe(404);
    const { error } = (await refusal.json()) as { error: string };
    await expect.poll(() => keys.getByRole('alert').textContent()).toBe(error);
    expect(await keys.getByLabel('Key description', { exact: true }).inputValue()).toBe('Too late');
  });
});
