import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * The OAuth applications page in a real Chromium against the platform on real Postgres, reached as an owner does
 * (sign-up through the redirect, a new project, the sidebar): dynamic client registration turned on; a redirect
 * URI the provider cannot use refused with the catalogued error; a confidential machine client registered, its
 * secret shown once and copied, and that secret getting a client-credentials token from the project's token
 * endpoint; the application edited, then deleted behind a confirmation (its secret refused from then on); axe
 * light and dark.
 */
const env = withDashboardInChromium();
const wait = { timeout: 30_000 };

describe('the dashboard in Chromium: OAuth applications', () => {
  it('registers a machine client whose shown secret works, edits and deletes it, and turns on DCR', { timeout: 240_000 }, async () => {
    const shot = screenshots('dashboard-oauth-apps');
    const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 }, colorScheme: 'light' });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.platform.url });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Provider Co', { newTeam: 'Provider team' });
    const adminGet = async <T>(path: string): Promise<T> => {
      const { admin } = await env.platform.apiHeadersFor(projectId);
      const response = await fetch(`${env.platform.url}/api/v1${path}`, { headers: admin });
      expect(response.status, path).toBe(200);
      return (await response.json()) as T;
    };
    const tokenWith = (clientId: string, secret: string) =>
      fetch(`${env.platform.url}/api/v1/projects/${projectId}/oauth/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'reports:read', resource: 'https://api.provider.test/' }),
      });

    await page.getByRole('link', { name: 'OAuth applications', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), wait).toBe('OAuth applications');
    await expect.poll(() => page.getByText('No applications yet.').isVisible(), wait).toBe(true);

    // Dynamic client registration: off, then on.
    const dcr = page.getByLabel('Allow dynamic client registration (apps and MCP clients register themselves)', { exact: true });
    expect(await dcr.isChecked()).toBe(false);
    await dcr.check();
    await expect
      .poll(
        async () =>
          (await adminGet<{ allow_dynamic_registration: boolean }>('/internal/oauth-provider/settings')).allow_dynamic_registration,
        wait,
      )
      .toBe(true);

    // A redirect URI with a fragment cannot be used: the catalogued error.
    await page.getByLabel('Name', { exact: true }).fill('Reports worker');
    await page.getByLabel('Redirect URIs', { exact: true }).fill('https://reports.provider.test/callback#x');
    await page.getByLabel('Allowed scopes', { exact: true }).fill('openid reports:read');
    await page.getByLabel('Machine-to-machine (client credentials)', { exact: true }).check();
    await page.getByRole('button', { name: 'Register application' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent(), wait)
      .toBe('The OAuth application is not valid. Reason: a redirect URI may not have a fragment: https://reports.provider.test/callback#x');

    await page.getByLabel('Redirect URIs', { exact: true }).fill('https://reports.provider.test/callback');
    await page.getByRole('button', { name: 'Register application' }).click();
    const created = page.getByRole('region', { name: 'New application' });
    await expect.poll(() => created.isVisible(), wait).toBe(true);
    const [application] = (await adminGet<{ items: Array<{ client_id: string; grant_types: string[] }> }>('/internal/oauth-applications'))
      .items;
    expect(application!.grant_types).toEqual(['authorization_code', 'refresh_token', 'client_credentials']);
    const shownSecret = (await created.locator('dd code').nth(1).textContent())!;
    await created.getByRole('button', { name: 'Copy client secret' }).click();
    await expect.poll(() => created.getByText('Copied.').isVisible(), wait).toBe(true);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(shownSecret);
    expect(await created.getByText(application!.client_id, { exact: true }).isVisible()).toBe(true);
    await shot(page, 'created');
    await expectAccessible(page, 'the OAuth applications page with a new secret');
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await expectAccessible(page, 'the OAuth applications page with a new secret, dark');

    // The copied secret gets a token with client credentials.
    const granted = await tokenWith(application!.client_id, copied);
    expect(granted.status, await granted.clone().text()).toBe(200);
    expect(((await granted.json()) as { access_token: string }).access_token).toBeTruthy();

    // Shown once: after Done it is gone from the page, and the list does not carry it.
    await created.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByText(copied).count()).toBe(0);
    const list = page.getByRole('list', { name: 'OAuth applications' });
    await expect.poll(() => list.getByText('Reports worker', { exact: true }).isVisible(), wait).toBe(true);

    // Edited in place.
    await list.getByRole('button', { name: 'Edit Reports worker' }).click();
    const edit = list.getByRole('form', { name: 'Edit Reports worker' });
    await edit.getByLabel('Name', { exact: true }).fill('Reports service');
    await edit.getByLabel('Logo URL', { exact: true }).fill('https://reports.provider.test/logo.png');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => list.getByText('Reports service', { exact: true }).isVisible(), wait).toBe(true);
    const [edited] = (await adminGet<{ items: Array<{ name: string; logo_url: string | null }> }>('/internal/oauth-applications')).items;
    expect(edited).toMatchObject({ name: 'Reports service', logo_url: 'https://reports.provider.test/logo.png' });
    await page.getByLabel('Theme', { exact: true }).selectOption('light');
    await expectAccessible(page, 'the OAuth applications page with an application');

    // Deleted behind a confirmation: the secret is refused from then on.
    await list.getByRole('button', { name: 'Delete Reports service' }).click();
    await page.getByRole('dialog', { name: 'Delete Reports service?' }).getByRole('button', { name: 'Delete application' }).click();
    await expect.poll(() => page.getByText('No applications yet.').isVisible(), wait).toBe(true);
    const refused = await tokenWith(application!.client_id, copied);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: string }).error).toBe('invalid_client');
  });
});
