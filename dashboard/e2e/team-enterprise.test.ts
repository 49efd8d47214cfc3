import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { startTxtDnsServer } from '@gatehouse/testing/dns-server';
import { TestSamlIdp } from '@gatehouse/testing/saml-idp';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * A team's enterprise set-up in a real Chromium against the platform on real Postgres, reached as an owner
 * does (sign-up through the redirect, a new project, Teams, a new team): a SAML connection added from the
 * IdP's metadata (the SP metadata downloadable and naming the ACS URL shown), renamed, its certificates
 * rotated with an overlap, removed behind a confirmation; a domain refused until its TXT record is published
 * on a local DNS server, then verified and its policy changed; a SCIM directory whose token is shown once,
 * works against the SCIM API, and stops working when the directory is deleted; axe light and dark.
 */
const dns = await startTxtDnsServer();
afterAll(() => dns.close());
const env = withDashboardInChromium({ settings: () => ({ sso: { dnsServers: [dns.address] } }) });

describe('the dashboard in Chromium: a team’s SSO, domains and SCIM', () => {
  it('adds, rotates and removes a SAML connection, verifies a domain, and hands out a SCIM token once', { timeout: 240_000 }, async () => {
    const shot = screenshots('dashboard-team-enterprise');
    const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Enterprise Co', { newTeam: 'Vendor team' });
    const adminGet = async <T>(path: string): Promise<T> => {
      const { admin } = await env.platform.apiHeadersFor(projectId);
      const response = await fetch(`${env.platform.url}/api/v1${path}`, { headers: admin });
      expect(response.status, path).toBe(200);
      return (await response.json()) as T;
    };

    await page.getByRole('link', { name: 'Teams', exact: true }).click();
    await page.getByLabel('Team name', { exact: true }).fill('Acme');
    await page.getByRole('button', { name: 'Create team' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Acme');
    const teamId = new URL(page.url()).pathname.split('/').at(-1)!;

    // SSO: a SAML connection from the IdP's metadata.
    const sso = page.getByRole('region', { name: 'SSO connections', exact: true });
    await expect.poll(() => sso.getByText('No SSO connections.').isVisible(), { timeout: 15_000 }).toBe(true);
    const idp = await TestSamlIdp.create();
    const form = sso.getByRole('form', { name: 'New SSO connection' });
    await form.getByLabel('Connection name', { exact: true }).fill('Acme Okta');
    await form.getByLabel('IdP metadata XML', { exact: true }).fill(idp.metadata());
    await form.getByRole('button', { name: 'Add connection' }).click();
    const card = sso.getByRole('region', { name: 'SSO connection Acme Okta', exact: true });
    await expect.poll(() => card.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await card.textContent()).toContain(idp.entityId);
    const [connection] = (
      await adminGet<{ items: Array<{ id: string; saml: { sp_acs_url: string } }> }>(`/sso/connections?team_id=${teamId}`)
    ).items;
    expect(await card.getByText(connection!.saml.sp_acs_url, { exact: true }).isVisible()).toBe(true);
    const metadataHref = (await card.getByRole('link', { name: 'Download SP metadata' }).getAttribute('href'))!;
    const metadata = await fetch(new URL(metadataHref, env.platform.url));
    expect(metadata.status).toBe(200);
    expect(await metadata.text()).toContain(connection!.saml.sp_acs_url);
    const certificates = card.getByRole('list', { name: 'Certificates of Acme Okta' });
    expect(await certificates.getByRole('listitem').count()).toBe(1);
    expect(await certificates.textContent()).toContain('current');
    await shot(page, 'saml-added');
    await expectAccessible(page, 'the team page with a SAML connection');

    // Renamed; certificates rotated: the new one current, the old one retiring after the overlap.
    await card.getByLabel('Name of Acme Okta', { exact: true }).fill('Acme SAML');
    await card.getByRole('button', { name: 'Rename' }).click();
    const renamed = sso.getByRole('region', { name: 'SSO connection Acme SAML', exact: true });
    await expect.poll(() => renamed.isVisible(), { timeout: 15_000 }).toBe(true);
    await idp.rotate();
    await renamed.getByLabel('New IdP metadata XML', { exact: true }).fill(idp.metadata());
    await renamed.getByLabel('Old certificates accepted for (hours)', { exact: true }).fill('2');
    await renamed.getByRole('button', { name: 'Rotate certificates' }).click();
    const rotated = renamed.getByRole('list', { name: 'Certificates of Acme SAML' });
    await expect.poll(() => rotated.getByRole('listitem').count(), { timeout: 15_000 }).toBe(2);
    expect(await rotated.textContent()).toMatch(/retires \d{4}-/);
    const stored = await adminGet<{ saml: { certificates: Array<{ retires_at: string | null }> } }>(`/sso/connections/${connection!.id}`);
    const retiring = stored.saml.certificates.find((certificate) => certificate.retires_at)!;
    const overlap = Date.parse(retiring.retires_at!) - Date.now();
    expect(overlap).toBeGreaterThan(90 * 60_000);
    expect(overlap).toBeLessThanOrEqual(2 * 3600_000);

    // Removed behind a confirmation.
    await renamed.getByRole('button', { name: 'Remove Acme SAML' }).click();
    await page.getByRole('dialog', { name: 'Remove Acme SAML?' }).getByRole('button', { name: 'Remove connection' }).click();
    await expect.poll(() => sso.getByText('No SSO connections.').isVisible(), { timeout: 15_000 }).toBe(true);
    expect((await adminGet<{ items: unknown[] }>(`/sso/connections?team_id=${teamId}`)).items).toEqual([]);

    // Domains: the TXT record shown, refused until published, then verified; policy changed.
    const domains = page.getByRole('region', { name: 'Verified domains', exact: true });
    const domain = `acme-${randomUUID().slice(0, 8)}.test`;
    await domains.getByLabel('Domain', { exact: true }).fill(domain);
    await domains.getByRole('button', { name: 'Add domain' }).click();
    const domainCard = domains.getByRole('region', { name: `Domain ${domain}`, exact: true });
    await expect.poll(() => domainCard.isVisible(), { timeout: 15_000 }).toBe(true);
    const [recordName, recordValue] = await domainCard.locator('dd code').allTextContents();
    expect(recordName).toBe(`_gatehouse-verification.${domain}`);
    await domainCard.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => domainCard.getByRole('alert').isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await domainCard.textContent()).toContain('not verified');
    dns.publish(recordName!, recordValue!);
    await domainCard.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => domainCard.getByRole('heading').textContent(), { timeout: 15_000 }).toMatch(/verified \d{4}-/);
    expect(await domainCard.getByRole('alert').count()).toBe(0);
    await domainCard.getByLabel(`New users on ${domain}`, { exact: true }).selectOption('automatic');
    await expect
      .poll(
        async () =>
          (await adminGet<{ items: Array<{ enrolment_policy: string }> }>(`/sso/domains?team_id=${teamId}`)).items[0]?.enrolment_policy,
      )
      .toBe('automatic');

    // SCIM: the token shown once, accepted by the SCIM API, refused once the directory is deleted.
    const scim = page.getByRole('region', { name: 'SCIM provisioning', exact: true });
    await scim.getByLabel('Directory name', { exact: true }).fill('Okta provisioning');
    await scim.getByRole('button', { name: 'Create directory' }).click();
    const fresh = scim.getByRole('region', { name: 'New SCIM token', exact: true });
    await expect.poll(() => fresh.isVisible(), { timeout: 15_000 }).toBe(true);
    const [baseUrl, token] = await fresh.locator('dd code').allTextContents();
    const scimUsers = () => fetch(`${baseUrl}/Users`, { headers: { authorization: `Bearer ${token}` } });
    expect((await scimUsers()).status).toBe(200);
    await shot(page, 'scim-token');
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await expectAccessible(page, 'the team page with a verified domain and a new SCIM token, dark');
    await fresh.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.getByText(token!).count()).toBe(0);
    const directories = scim.getByRole('list', { name: 'SCIM directories' });
    expect(await directories.textContent()).toContain('Okta provisioning');
    await directories.getByRole('button', { name: 'Delete Okta provisioning' }).click();
    await page.getByRole('dialog', { name: 'Delete Okta provisioning?' }).getByRole('button', { name: 'Delete directory' }).click();
    await expect.poll(() => scim.getByText('No SCIM directories.').isVisible(), { timeout: 15_000 }).toBe(true);
    expect((await scimUsers()).status).toBe(401);
  });
});
