import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { startOidcIdp } from '@gatehouse/testing/oidc-idp';
import { TestSamlIdp } from '@gatehouse/testing/saml-idp';
import { languageOwnNames } from '../src/i18n/language-select.tsx';
import { createProject, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * Issue #37 on the enterprise parts of the dashboard: the owner opens the dashboard in the pseudo-locale `en-XA`
 * (every catalogue message accented inside ⟦…⟧) and goes, through the links a person follows, to the
 * authentication page with one of the project's own OpenID providers, and to a team's page with an SSO
 * connection, a SCIM directory and a setup link; then the team's IT admin opens the setup link (the URL as handed
 * out) in the same language. Any word outside ⟦…⟧ escaped the catalogue (the owner's data, code and ids aside).
 */
const oidc = await startOidcIdp();
afterAll(() => oidc.close());
const env = withDashboardInChromium();

/** Names that are no UI text: the product, each language's own name, the pseudo-locale's tag. */
const names = ['Gatehouse', 'en-XA', ...languageOwnNames];

/** The words of `selector` outside pseudo-localised messages, hidden ones (closed dialogs) included; code, fields and data aside. */
async function wordsOutsidePseudo(page: Page, selector: string, data: string[]): Promise<string> {
  const text = await page.evaluate((selector) => {
    const root = document.querySelector(selector)?.cloneNode(true) as HTMLElement | undefined;
    if (!root) return '';
    for (const element of Array.from(root.querySelectorAll('pre, code, textarea'))) element.remove();
    for (const block of Array.from(root.querySelectorAll('p, li, td, th, dt, dd, label, option, button, h1, h2, h3, span, a')))
      block.append(' ');
    return root.textContent ?? '';
  }, selector);
  return [...data, ...names]
    .sort((a, b) => b.length - a.length)
    .reduce((left, value) => left.replaceAll(value, ''), text.replace(/⟦[^⟧]*⟧/g, ''))
    .replace(/[\s\p{P}\p{S}\d]/gu, '');
}

async function settled(page: Page): Promise<void> {
  await expect
    .poll(
      async () => (await page.locator('.dash-loading, [aria-busy="true"]').count()) === 0 && (await page.locator('#main h1').count()) > 0,
      { timeout: 30_000 },
    )
    .toBe(true);
}

describe('the enterprise pages in the owner’s language', () => {
  it('en-XA: no text outside the catalogue on the own OpenID providers, a team’s SSO, SCIM and setup links, and the setup page', {
    timeout: 420_000,
  }, async () => {
    const owner = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
    const email = `sso-lang-${randomUUID().slice(0, 8)}@dashboard.test`;
    await signUpOwner(owner, env.platform.url, email);
    const projectName = 'Enterprise Sprachen';
    const projectId = await createProject(owner, projectName, { newTeam: 'Sprachen owners' });
    const storage = await owner.context().storageState();
    await owner.context().close();

    // What the pages show, set up as the project's backend would (the forms themselves: own-oidc-provider.test.ts, team-enterprise.test.ts).
    const { admin, server } = await env.platform.apiHeadersFor(projectId);
    const api = async (method: string, path: string, body: unknown, headers = admin) => {
      const response = await fetch(`${env.platform.url}/api/v1${path}`, { method, headers, body: JSON.stringify(body) });
      const answer = (await response.json()) as Record<string, unknown>;
      expect(response.status, `${path}: ${JSON.stringify(answer)}`).toBeLessThan(300);
      return answer;
    };
    oidc.configure({
      clientId: 'lang',
      clientSecret: 'lang-secret',
      redirectUri: `${env.platform.url}/api/v1/auth/oauth/callback/oidc-lang`,
    });
    await api('PATCH', '/internal/config/override/project', {
      config_override_string: JSON.stringify({
        'domains.allowLocalhost': true,
        'auth.oauth.providers.oidc-lang': {
          type: 'oidc',
          issuer: oidc.issuer,
          displayName: 'Lang Workforce',
          clientId: 'lang',
          clientSecret: 'lang-secret',
          allowSignIn: true,
        },
      }),
    });
    const team = await api('POST', '/teams', { display_name: 'Lang Team' }, server);
    const idp = await TestSamlIdp.create();
    await api('POST', '/sso/connections', {
      team_id: team.id,
      protocol: 'saml',
      display_name: 'Lang SAML',
      saml: { idp_metadata_xml: idp.metadata() },
    });
    await api('POST', `/teams/${team.id}/scim-directories`, { display_name: 'Lang SCIM' });
    const link = await api('POST', `/teams/${team.id}/sso-setup-links`, { expires_in_minutes: 60 }, server);
    const data = [email, projectName, projectId, 'Lang Workforce', 'Lang Team', 'Lang SAML', 'Lang SCIM', 'oidc-lang', idp.entityId];

    const context = await env.browser.newContext({ locale: 'en-XA', storageState: storage, viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${env.platform.url}/dashboard`);
    await page.getByRole('link', { name: projectName }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toBe(`/dashboard/projects/${projectId}/overview`);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-XA');

    // The authentication page's own OpenID providers: the provider's card and the new one's form.
    await page.locator('.dash-nav a[href$="/auth"]').click();
    await settled(page);
    const ownProviders = 'section.dash-section:has(input[name="new-oidc-key"])';
    await expect.poll(() => page.locator(`${ownProviders} input[name="oidc-lang-issuer"]`).count(), { timeout: 30_000 }).toBe(1);
    expect(await wordsOutsidePseudo(page, ownProviders, data)).toBe('');

    // The team's page through the teams list: SSO connections, SCIM directories, setup links (a dialog's words too).
    await page.locator('.dash-nav a[href$="/teams"]').click();
    await settled(page);
    await page.locator('#main a', { hasText: 'Lang Team' }).first().click();
    await expect.poll(() => page.locator('#main h1').textContent(), { timeout: 30_000 }).toBe('Lang Team');
    await expect.poll(() => page.locator('#main section[aria-label*="Lang SAML"]').count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => page.locator('#main li', { hasText: 'Lang SCIM' }).count(), { timeout: 30_000 }).toBe(1);
    // The SCIM directory's and the setup link's rows, each with its revoking button.
    await expect.poll(() => page.locator('#main li:has(button.gh-danger)').count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    expect(await wordsOutsidePseudo(page, '#main', data)).toBe('');

    // The setup page, from the link as handed out.
    const admin2 = await context.newPage();
    await admin2.goto(String(link.url));
    await expect.poll(() => admin2.locator('main h2').count(), { timeout: 30_000 }).toBeGreaterThan(1);
    expect(await wordsOutsidePseudo(admin2, 'main', [...data, projectName])).toBe('');
    await context.close();
  });
});
