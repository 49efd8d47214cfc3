import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * The "Bot challenge" section of the Authentication page in Chromium against the platform on real
 * Postgres: turning it on without keys shows the server's refusal verbatim and saves nothing; with
 *keys it is saved to `auth.botChallenge` and read back in the form after a reload.
 */
const env = withDashboardInChromium();

describe('the dashboard in Chromium: bot challenge settings', () => {
  it('saves the bot challenge from the Authentication page', { timeout: 180_000 }, async () => {
    const shot = screenshots('dashboard-bot-challenge');
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 900 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Bot Check Co', { newTeam: 'Bot team' });
    const { services } = env.platform.context;
    const configOf = async () => {
      await services.projects.forget(projectId);
      return (await services.projects.find(projectId))!.config.auth.botChallenge;
    };
    await page.getByRole('navigation', { name: 'Project pages' }).getByRole('link', { name: 'Authentication', exact: true }).click();
    const form = page.getByRole('form', { name: 'Bot challenge' });
    await expect.poll(() => form.getByLabel('Mode', { exact: true }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await form.getByLabel('Mode', { exact: true }).inputValue()).toBe('off');

    await form.getByLabel('Mode', { exact: true }).selectOption('required');
    await form.getByRole('button', { name: 'Save bot challenge' }).click();
    await expect
      .poll(() => form.getByRole('alert').textContent(), { timeout: 15_000 })
      .toContain('auth.botChallenge.siteKey is needed when auth.botChallenge.mode is not off.');
    expect((await configOf()).mode).toBe('off');

    await form.getByLabel('Provider', { exact: true }).selectOption('hcaptcha');
    await form.getByLabel('Site key', { exact: true }).fill('dash-site-key');
    await form.getByLabel('Secret key', { exact: true }).fill('dash-secret-key');
    await form.getByLabel('Lowest accepted score', { exact: true }).fill('0.7');
    await form.getByLabel('When the provider cannot be reached', { exact: true }).selectOption('reject');
    await form.getByRole('button', { name: 'Save bot challenge' }).click();
    await expect.poll(() => form.getByRole('status').textContent(), { timeout: 15_000 }).toBe('Saved.');
    expect(await configOf()).toEqual({
      mode: 'required',
      provider: 'hcaptcha',
      siteKey: 'dash-site-key',
      secretKey: 'dash-secret-key',
      minScore: 0.7,
      onProviderOutage: 'reject',
    });
    await shot(page, 'saved');
    await expectAccessible(page, 'the Authentication page with the bot challenge section');

    await page.reload();
    await expect.poll(() => form.getByLabel('Site key', { exact: true }).inputValue(), { timeout: 15_000 }).toBe('dash-site-key');
    expect(await form.getByLabel('Mode', { exact: true }).inputValue()).toBe('required');
  });

  it("shows a user's sign-up risk scores on the user page", { timeout: 180_000 }, async () => {
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 900 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Risk Co', { newTeam: 'Risk team' });
    const { services } = env.platform.context;
    const project = (await services.projects.find(projectId))!;
    await services.projects.replaceConfigOverride(project.id, { ...project.config_override, 'auth.password.allowSignIn': true });
    const keys = await services.apiKeys.createKeySet({
      projectId: project.id,
      description: 'risk test',
      expiresAt: new Date(Date.now() + 3_600_000),
      keys: { publishable_client_key: true },
    });
    // A throwaway-domain sign-up scores bot 30, free-trial abuse 60 (see risk-scores.ts).
    const riskyEmail = `risky-${randomUUID().slice(0, 8)}@mailinator.com`;
    const signUp = await env.platform.context.request({
      method: 'POST',
      url: '/api/v1/auth/password/sign-up',
      headers: {
        'x-stack-access-type': 'client',
        'x-stack-project-id': projectId,
        'x-stack-publishable-client-key': (keys.keys as { publishable_client_key: string }).publishable_client_key,
      },
      payload: { email: riskyEmail, password: 'risky-password-1' },
      remoteAddress: '198.51.100.77',
    });
    expect(signUp.status, signUp.text).toBe(200);
    // The owner finds the user as a person would: the project's Users page, then the user's row.
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('link', { name: riskyEmail, exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/dashboard/projects/${projectId}/users/${signUp.body.user_id}`);
    await expect
      .poll(() => page.getByTestId('sign-up-risk').textContent(), { timeout: 20_000 })
      .toBe('sign-up risk: bot 30, free-trial abuse 60 (of 100)');
  });
});
