import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { greetingOf } from '../../examples/demo/e2e/e2e-environment.ts';
import { startOidcIdp } from '@gatehouse/testing/oidc-idp';
import { createProject, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * Issue #34 in the dashboard, in a real Chromium, as an owner does it: a project's own OpenID Connect provider
 * added through the authentication page's form against a local oidc-provider (the first save, with an issuer on a
 * private address, refused with the reason in words and nothing saved; the corrected issuer saved), then a
 * newcomer signs in with it from the app's sign-in page; renamed and removed.
 */
const oidc = await startOidcIdp();
afterAll(async () => {
  await oidc.close();
});
const env = withDashboardInChromium();
const wait = { timeout: 30_000 };

describe("the dashboard in Chromium: a project's own OpenID provider", () => {
  it('adds an OpenID provider through the form (refused first, with the reason), and a newcomer signs in with it', {
    timeout: 300_000,
  }, async () => {
    const shot = screenshots('dashboard-own-oidc-provider');
    const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.setDefaultTimeout(wait.timeout);
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Initech App', { newTeam: 'Initech owners' });
    oidc.configure({
      clientId: 'initech-dashboard',
      clientSecret: 'initech-dashboard-secret',
      redirectUri: `${env.platform.url}/api/v1/auth/oauth/callback/oidc-initech`,
    });

    await page.getByRole('navigation').getByRole('link', { name: 'Authentication', exact: true }).click();
    const section = page.getByRole('main').getByRole('region', { name: 'Your own OpenID Connect providers', exact: true });
    await expect.poll(() => section.getByText('No OpenID Connect providers of your own yet.').isVisible(), wait).toBe(true);
    const form = section.getByRole('region', { name: 'New OpenID Connect provider', exact: true });
    await form.getByLabel('Key (oidc-…)', { exact: true }).fill('oidc-initech');
    await form.getByLabel('Button name', { exact: true }).fill('Initech Workforce');
    await form.getByLabel('Issuer URL', { exact: true }).fill('http://10.0.0.7/oidc');
    await form.getByLabel('Client ID', { exact: true }).fill('initech-dashboard');
    await form.getByLabel('Client secret', { exact: true }).fill('initech-dashboard-secret');
    await form.getByRole('button', { name: 'Add OpenID provider' }).click();
    // The issuer is on a private address the outbound guard refuses: refused, the reason in words, nothing saved.
    await expect
      .poll(() => form.getByRole('alert').textContent(), wait)
      .toBe(
        "The OpenID provider was not saved: the issuer's address may not be reached from the server (private or local addresses are refused; loopback only when the project allows localhost).",
      );
    await shot(page, 'refused');
    const { admin } = await env.platform.apiHeadersFor(projectId);
    const renderedProviders = async () => {
      const response = await fetch(`${env.platform.url}/api/v1/internal/config`, { headers: admin });
      const rendered = JSON.parse(((await response.json()) as { config_string: string }).config_string);
      return rendered.auth.oauth.providers as Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(await renderedProviders())).not.toContain('oidc-initech');

    // The owner corrects the issuer (the local provider, on loopback, which a new project allows) and saves again.
    await form.getByLabel('Issuer URL', { exact: true }).fill(oidc.issuer);
    await form.getByRole('button', { name: 'Add OpenID provider' }).click();
    const card = section.getByRole('region', { name: 'OpenID Connect provider Initech Workforce', exact: true });
    await expect.poll(() => card.isVisible(), wait).toBe(true);
    expect(await card.textContent()).toContain(`${env.platform.url}/api/v1/auth/oauth/callback/oidc-initech`);
    expect((await renderedProviders())['oidc-initech']).toMatchObject({
      type: 'oidc',
      issuer: oidc.issuer,
      displayName: 'Initech Workforce',
      clientId: 'initech-dashboard',
      allowSignIn: true,
    });
    await shot(page, 'saved');

    // A newcomer signs in with it from the app's sign-in page.
    await env.platform.serveAppFor(projectId);
    const person = await env.browser.newPage();
    person.setDefaultTimeout(wait.timeout);
    const email = `milton-${randomUUID().slice(0, 8)}@initech.test`;
    await person.goto(`${env.platform.url}/handler/sign-in`);
    await person.getByRole('button', { name: 'Continue with Initech Workforce' }).click();
    await expect.poll(() => person.url().startsWith(oidc.issuer), wait).toBe(true);
    await person.locator('input[name="login"]').fill(email);
    await person.locator('input[name="password"]').fill('any');
    await person.locator('button[type="submit"]').click();
    await person.locator('button[type="submit"]').click();
    await expect.poll(() => greetingOf(person), wait).toBe(`Hello, OIDC ${email.split('@')[0]}`);
    await person.close();

    // Renamed through its card, then removed behind a confirmation.
    await card.getByLabel('Button name', { exact: true }).fill('Initech SSO');
    await card.getByRole('button', { name: 'Save Initech Workforce' }).click();
    const renamed = section.getByRole('region', { name: 'OpenID Connect provider Initech SSO', exact: true });
    await expect.poll(() => renamed.isVisible(), wait).toBe(true);
    expect((await renderedProviders())['oidc-initech']).toMatchObject({ displayName: 'Initech SSO', issuer: oidc.issuer });
    await renamed.getByRole('button', { name: 'Remove Initech SSO' }).click();
    await page.getByRole('dialog', { name: 'Remove Initech SSO?' }).getByRole('button', { name: 'Remove provider' }).click();
    await expect.poll(() => section.getByText('No OpenID Connect providers of your own yet.').isVisible(), wait).toBe(true);
    expect(Object.keys(await renderedProviders())).not.toContain('oidc-initech');
    await page.close();
  });
});
