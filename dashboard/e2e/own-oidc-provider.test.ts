import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { greetingOf } from '../../examples/demo/e2e/e2e-environment.ts';
import { startOidcIdp } from '../../server/src/testing/oidc-idp.ts';
import { startSamlIdpWeb } from '../../server/src/testing/saml-idp-web.ts';
import { createProject, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * Issue #34 in the dashboard, in a real Chromium, as an owner does it: a project's own OpenID Connect provider
 * added through the authentication page's form against a local oidc-provider (the first save refused with the
 * reason in words, as the issuer is on loopback and the project does not allow it yet; allowed on the domains
 * page, then saved), then a newcomer signs in with it from the app's sign-in page; edited and removed. And the
 * team page's SAML connection from the IdP's metadata URL (a URL that answers 404 refused with its reason).
 */
const oidc = await startOidcIdp();
const saml = await startSamlIdpWeb(() => '');
afterAll(async () => {
  await Promise.all([oidc.close(), saml.close()]);
});
const env = withDashboardInChromium();
const wait = { timeout: 30_000 };

describe('the dashboard in Chromium: own OpenID provider and SAML metadata URL', () => {
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
    await form.getByLabel('Issuer URL', { exact: true }).fill(oidc.issuer);
    await form.getByLabel('Client ID', { exact: true }).fill('initech-dashboard');
    await form.getByLabel('Client secret', { exact: true }).fill('initech-dashboard-secret');
    await form.getByRole('button', { name: 'Add provider' }).click();
    // The issuer is on loopback and the project does not allow localhost: refused, the reason in words, nothing saved.
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

    // The owner allows localhost on the domains page, comes back and saves the same form again.
    await page.getByRole('navigation').getByRole('link', { name: 'Domains and handler', exact: true }).click();
    await page.getByRole('main').getByLabel('Allow localhost callbacks (development)', { exact: true }).check();
    await expect
      .poll(() => page.getByRole('main').getByLabel('Allow localhost callbacks (development)', { exact: true }).isChecked())
      .toBe(true);
    await page.getByRole('navigation').getByRole('link', { name: 'Authentication', exact: true }).click();
    await form.getByLabel('Key (oidc-…)', { exact: true }).fill('oidc-initech');
    await form.getByLabel('Button name', { exact: true }).fill('Initech Workforce');
    await form.getByLabel('Issuer URL', { exact: true }).fill(oidc.issuer);
    await form.getByLabel('Client ID', { exact: true }).fill('initech-dashboard');
    await form.getByLabel('Client secret', { exact: true }).fill('initech-dashboard-secret');
    await form.getByRole('button', { name: 'Add provider' }).click();
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

  it('saves a team’s SAML connection from the IdP’s metadata URL, after a URL that answers 404 is refused with its reason', {
    timeout: 240_000,
  }, async () => {
    const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.setDefaultTimeout(wait.timeout);
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    await createProject(page, 'Metadata Co', { newTeam: 'Metadata owners' });
    // The IdP is on loopback: the project allows localhost (development), as the owner sets it.
    await page.getByRole('navigation').getByRole('link', { name: 'Domains and handler', exact: true }).click();
    await page.getByRole('main').getByLabel('Allow localhost callbacks (development)', { exact: true }).check();
    await expect
      .poll(() => page.getByRole('main').getByLabel('Allow localhost callbacks (development)', { exact: true }).isChecked())
      .toBe(true);
    await page.getByRole('navigation').getByRole('link', { name: 'Teams', exact: true }).click();
    await page.getByLabel('Team name', { exact: true }).fill('Globex');
    await page.getByRole('button', { name: 'Create team' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Globex');

    const sso = page.getByRole('main').getByRole('region', { name: 'SSO connections', exact: true });
    const form = sso.getByRole('form', { name: 'New SSO connection' });
    await form.getByLabel('Connection name', { exact: true }).fill('Globex SAML');
    await form.getByLabel('IdP metadata from', { exact: true }).selectOption('url');
    await form.getByLabel('IdP metadata URL', { exact: true }).fill(saml.metadataUrl.replace('/metadata', '/no-metadata'));
    await form.getByRole('button', { name: 'Add connection' }).click();
    await expect
      .poll(() => form.getByRole('alert').textContent(), wait)
      .toBe(
        'The IdP metadata could not be read: the URL did not answer with the metadata (no connection, or an error status). (HTTP status 404)',
      );
    await expect.poll(() => sso.getByText('No SSO connections.').isVisible(), wait).toBe(true);

    await form.getByLabel('IdP metadata URL', { exact: true }).fill(saml.metadataUrl);
    await form.getByRole('button', { name: 'Add connection' }).click();
    const card = sso.getByRole('region', { name: 'SSO connection Globex SAML', exact: true });
    await expect.poll(() => card.isVisible(), wait).toBe(true);
    // The IdP's entity id and certificate come from the metadata the server read at the URL.
    expect(await card.textContent()).toContain(saml.idp.entityId);
    expect(await card.getByRole('list', { name: 'Certificates of Globex SAML' }).getByRole('listitem').count()).toBe(1);
    expect(await form.getByRole('alert').count()).toBe(0);
    await page.close();
  });
});
