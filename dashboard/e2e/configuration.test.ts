import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * Configuring a project in a real Chromium against the platform on real Postgres: sign-in methods and
 * anonymous users, Google with the project's own keys (the missing client id named by the server),
 * the merge strategy; a trusted domain and production mode (the localhost check fails with its fix
 * link, then passes); a key set created (its keys shown once and working) and revoked (no longer working).
 */
const env = withDashboardInChromium();

describe('the dashboard in Chromium: authentication, domains and API keys', () => {
  it('configures sign-in, Google with own keys, domains, production mode and key sets', { timeout: 180_000 }, async () => {
    const shot = screenshots('dashboard-configuration');
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Config Co', { newTeam: 'Config team' });
    const configOf = async () => {
      env.platform.context.services.projects.forget(projectId);
      return (await env.platform.context.services.projects.find(projectId))!.config;
    };

    // Sign-in methods, saved as they are clicked.
    await page.getByRole('link', { name: 'Authentication', exact: true }).click();
    await page.getByRole('checkbox', { name: 'Magic link / one-time code' }).click();
    await expect.poll(async () => (await configOf()).auth.otp.allowSignIn).toBe(true);
    await expect.poll(() => page.getByRole('checkbox', { name: 'Magic link / one-time code' }).isChecked()).toBe(true);
    const anonymous = page.getByRole('checkbox', { name: /^Anonymous users/ });
    await expect.poll(() => anonymous.isEnabled()).toBe(true);
    const anonymousBefore = (await configOf()).auth.allowAnonymousSignUp;
    expect(await anonymous.isChecked()).toBe(anonymousBefore);
    await anonymous.click();
    await expect.poll(async () => (await configOf()).auth.allowAnonymousSignUp).toBe(!anonymousBefore);
    await expect.poll(() => anonymous.isChecked()).toBe(!anonymousBefore);

    // Google with the project's own keys: the server names what is missing.
    await page.getByLabel('Add a provider', { exact: true }).selectOption({ label: 'Google' });
    await page.getByRole('button', { name: 'Add provider' }).click();
    await page.getByLabel('Google keys', { exact: true }).selectOption('standard');
    await page.getByRole('button', { name: 'Save OAuth providers' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Client ID is missing');
    await shot(page, 'google-client-id-missing');
    await page.getByLabel('Google client id', { exact: true }).fill('google-client-123');
    await page.getByLabel('Google client secret', { exact: true }).fill('google-secret-456');
    await page.getByRole('button', { name: 'Save OAuth providers' }).click();
    await expect.poll(() => page.getByText('OAuth providers saved.').isVisible()).toBe(true);
    await expect
      .poll(async () => (await configOf()).auth.oauth.providers.google)
      .toMatchObject({ clientId: 'google-client-123', clientSecret: 'google-secret-456' });
    await page.getByLabel('OAuth account merge strategy', { exact: true }).selectOption('raise_error');
    await expect.poll(async () => (await configOf()).auth.oauth.accountMergeStrategy).toBe('raise_error');
    await page.reload();
    await expect.poll(() => page.getByLabel('Google client id', { exact: true }).inputValue()).toBe('google-client-123');
    await shot(page, 'authentication');
    await expectAccessible(page, 'the authentication page');

    // A trusted domain; production mode refused while localhost is allowed, with the fix link; then on.
    await page.getByRole('link', { name: 'Domains and handler', exact: true }).click();
    await page.getByLabel('Domain', { exact: true }).fill('https://app.example.com');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Trusted domains' }).textContent()).toContain('https://app.example.com');
    await page.getByRole('button', { name: 'Turn on production mode' }).click();
    const failure = page.getByRole('alert');
    await expect
      .poll(() => failure.textContent())
      .toBe(
        `Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings\nFix it at /projects/${projectId}/domains.`,
      );
    await expect.poll(() => failure.getByRole('link').getAttribute('href')).toBe(`/dashboard/projects/${projectId}/domains`);
    await shot(page, 'production-check-failing');
    await expectAccessible(page, 'the domains page with a failing check');
    await failure.getByRole('link').click();
    await page.getByRole('checkbox', { name: 'Allow localhost callbacks (development)' }).click();
    await expect.poll(async () => (await configOf()).domains.allowLocalhost).toBe(false);
    await page.getByRole('button', { name: 'Turn on production mode' }).click();
    await expect.poll(() => page.getByText('This project is in production mode.').isVisible()).toBe(true);
    await expect.poll(async () => (await env.platform.context.services.projects.find(projectId))?.is_production_mode).toBe(true);
    await shot(page, 'production-mode-on');

    // A key set: its keys shown once and working, then revoked.
    await page.getByRole('link', { name: 'API keys', exact: true }).click();
    await page.getByLabel('Description', { exact: true }).fill('CI keys');
    await page.getByRole('button', { name: 'Create key set' }).click();
    const newKeys = page.getByRole('region', { name: 'New keys' });
    await expect.poll(() => newKeys.isVisible()).toBe(true);
    const secret = (await newKeys.getByText(/^ssk_/).textContent())!;
    const call = () =>
      env.platform.context.request({
        url: '/api/v1/users?limit=1',
        headers: { 'x-stack-access-type': 'server', 'x-stack-project-id': projectId, 'x-stack-secret-server-key': secret },
      });
    expect((await call()).status).toBe(200);
    await shot(page, 'keys-shown-once');
    await expectAccessible(page, 'the API keys page');
    await newKeys.getByRole('button', { name: 'I have copied them' }).click();
    await expect.poll(() => newKeys.count()).toBe(0);
    const keySets = page.getByRole('list', { name: 'Key sets' });
    await expect.poll(() => keySets.textContent()).toContain(`ssk …${secret.slice(-4)}`);
    await keySets.getByRole('button', { name: 'Revoke CI keys' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke keys' }).click();
    await expect.poll(() => keySets.textContent()).toMatch(/CI keys.*revoked/);
    expect((await call()).status).toBe(401);
    await shot(page, 'key-revoked');
  });
});
