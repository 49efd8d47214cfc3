import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { greetingOf } from '../../examples/demo/e2e/e2e-environment.ts';
import { startTxtDnsServer } from '@gatehouse/testing/dns-server';
import { startSamlIdpWeb } from '@gatehouse/testing/saml-idp-web';
import { expectAccessible, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * Self-serve SSO setup in a real Chromium (issue #34): the team's IT admin opens the one-time link the project
 * owner handed out, configures SAML from the IdP's metadata URL (a URL that is not metadata refused with its
 * reason first), claims a domain and verifies it once its TXT record is on the local DNS server, creates a SCIM
 * token that the SCIM API accepts; then a person of that domain signs in on the app's email-first sign-in page,
 * through the local SAML IdP, and lands in the team. Every step is a click or a redirect from the link on.
 */
const dns = await startTxtDnsServer();
let spEntityId = '';
const saml = await startSamlIdpWeb(() => spEntityId);
afterAll(async () => {
  await Promise.all([dns.close(), saml.close()]);
});
const env = withDashboardInChromium({ settings: () => ({ sso: { dnsServers: [dns.address] } }) });
const wait = { timeout: 30_000 };

describe('self-serve SSO setup in Chromium', () => {
  it('from the setup link to an SSO sign-in of the domain’s first person', { timeout: 240_000 }, async () => {
    const shot = screenshots('sso-setup-journey');
    const { context } = env.platform;
    const project = await context.createProject({ 'auth.emailFirst': true, 'domains.allowLocalhost': true });
    await env.platform.serveAppFor(project.project.id);
    const team = await context.services.teams.create(project.project, { display_name: 'Initech' });
    // The project owner hands the team's IT admin a one-time link (here through the API, as a backend would).
    const link = await context.request({
      method: 'POST',
      url: `/api/v1/teams/${team.id}/sso-setup-links`,
      headers: project.headers.server,
      payload: { expires_in_minutes: 60 },
    });
    expect(link.status, link.text).toBe(201);

    const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
    page.setDefaultTimeout(wait.timeout);
    await page.goto(link.body.url);
    await expect.poll(() => page.getByText('Team Initech', { exact: false }).isVisible(), wait).toBe(true);
    // The link's token leaves the address bar once exchanged (it works once; the session stays in this tab).
    expect(page.url()).not.toContain(link.body.token);

    // SAML from the IdP's metadata URL; a URL that does not serve metadata is refused with its reason.
    const connectionForm = page.getByRole('button', { name: 'Save connection' });
    await page.getByLabel('Identity provider metadata URL', { exact: true }).fill(saml.metadataUrl.replace('/metadata', '/no-metadata'));
    await connectionForm.click();
    await expect.poll(() => page.getByRole('alert').textContent(), wait).toContain('HTTP status 404');
    await page.getByLabel('Identity provider metadata URL', { exact: true }).fill(saml.metadataUrl);
    await connectionForm.click();
    const connection = page.getByRole('definition').filter({ hasText: '/api/v1/auth/sso/saml/' }).first();
    await expect.poll(() => connection.isVisible(), wait).toBe(true);
    expect(await page.getByRole('alert').count()).toBe(0);
    // What the admin copies into the IdP: the service provider's metadata URL (its entity id) and ACS URL.
    spEntityId = (await page.getByLabel('Connection Initech SAML').locator('dd code').first().textContent()) ?? '';
    expect(spEntityId).toMatch(/\/api\/v1\/auth\/sso\/saml\/[0-9a-f-]{36}\/metadata$/);
    await shot(page, 'connection-saved');

    // A domain: refused until its TXT record is published, then verified.
    const domain = `initech-${randomUUID().slice(0, 8)}.test`;
    await page.getByLabel('Domain', { exact: true }).fill(domain);
    await page.getByRole('button', { name: 'Add domain' }).click();
    const row = page.getByRole('list', { name: 'Domains' }).getByRole('listitem').filter({ hasText: domain });
    await expect.poll(() => row.isVisible(), wait).toBe(true);
    const [recordName, recordValue] = await row.locator('code').allTextContents();
    expect(recordName).toBe(`_gatehouse-verification.${domain}`);
    await page.getByRole('button', { name: `Verify ${domain}` }).click();
    await expect.poll(() => page.getByRole('alert').isVisible(), wait).toBe(true);
    expect(await row.textContent()).toContain('(not verified)');
    dns.publish(recordName as string, recordValue as string);
    await page.getByRole('button', { name: `Verify ${domain}` }).click();
    await expect.poll(() => row.textContent(), wait).toContain('(verified)');

    // A SCIM token, shown once, that the SCIM API takes.
    await page.getByRole('button', { name: 'Create SCIM directory' }).click();
    const token = page.getByRole('definition').filter({ has: page.getByRole('button', { name: 'Copy the SCIM token' }) });
    await expect.poll(() => token.isVisible(), wait).toBe(true);
    const [baseUrl, secret] = await page.getByLabel('New SCIM token').locator('dd code').allTextContents();
    const scimUsers = await fetch(`${baseUrl}/Users`, { headers: { authorization: `Bearer ${secret}` } });
    expect(scimUsers.status).toBe(200);
    await shot(page, 'setup-done');
    await expectAccessible(page, 'the setup page, connection, verified domain and SCIM token');
    await page.close();

    // A person of that domain: email first on the app's sign-in page, on to the IdP, back signed in, in the team.
    const person = await env.browser.newPage();
    person.setDefaultTimeout(wait.timeout);
    const email = `pat@${domain}`;
    await person.goto(`${env.platform.url}/handler/sign-in`);
    await person.getByLabel('Email', { exact: true }).fill(email);
    await person.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect.poll(() => person.url().startsWith(`${new URL(saml.metadataUrl).origin}/sso`), wait).toBe(true);
    await person.getByLabel('IdP email').fill(email);
    await person.getByRole('button', { name: 'Sign in at the IdP' }).click();
    await expect.poll(() => greetingOf(person), wait).toBe('Hello, SAML pat');
    await shot(person, 'signed-in');
    await person.close();
    const members = await context.request({
      method: 'GET',
      url: `/api/v1/team-member-profiles?team_id=${team.id}`,
      headers: project.headers.server,
    });
    expect(members.body.items.map((member: { user: { primary_email: string } }) => member.user.primary_email)).toEqual([email]);
  });
});
