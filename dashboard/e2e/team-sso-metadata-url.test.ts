import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { startSamlIdpWeb } from '@gatehouse/testing/saml-idp-web';
import { createProject, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * Issue #34 in the dashboard, in a real Chromium, as an owner does it: the team page's SAML connection from the
 * IdP's metadata URL, served by a local HTTP server (a URL that answers 404 refused first, with its reason).
 */
const saml = await startSamlIdpWeb(() => '');
afterAll(async () => {
  await saml.close();
});
const env = withDashboardInChromium();
const wait = { timeout: 30_000 };

describe('the dashboard in Chromium: a team’s SAML metadata URL', () => {
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
