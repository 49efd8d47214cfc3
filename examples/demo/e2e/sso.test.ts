import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTxtDnsServer } from '@gatehouse/testing/dns-server';
import { startOidcIdp } from '@gatehouse/testing/oidc-idp';
import { startSamlIdpWeb } from '@gatehouse/testing/saml-idp-web';
import { screenshots } from './chromium.ts';
import { createPasswordUser, greetingOf, signOutViaPage, withDemoInChromium } from './e2e-environment.ts';

/**
 * Enterprise SSO in a real Chromium, from the app's sign-in page (which asks for the email first):
 * an email on a team's verified domain goes to that team's IdP — a SAML IdP signing real XML and a
 * local oidc-provider — and comes back signed in as a new member of the team; any other email goes
 * on to the usual methods; a forged assertion ends on the error page with its catalogued code.
 */
let dns: Awaited<ReturnType<typeof startTxtDnsServer>>;
let saml: Awaited<ReturnType<typeof startSamlIdpWeb>>;
let oidc: Awaited<ReturnType<typeof startOidcIdp>>;
let samlEntityId = '';
// Registered before the platform's start, which reads the DNS server's address.
beforeAll(async () => {
  [dns, saml, oidc] = await Promise.all([startTxtDnsServer(), startSamlIdpWeb(() => samlEntityId), startOidcIdp()]);
}, 60_000);
const env = withDemoInChromium({ 'auth.emailFirst': true }, { settings: () => ({ sso: { dnsServers: [dns.address] } }) });
afterAll(async () => {
  await Promise.all([dns?.close(), saml?.close(), oidc?.close()]);
});

const server = (method: 'GET' | 'POST', url: string, payload?: object) =>
  env.platform.context.request({
    method,
    url: `/api/v1${url}`,
    headers: env.platform.project.headers.server,
    ...(payload ? { payload } : {}),
  });

/** A team with a verified domain (a TXT record on the local DNS server) and an SSO connection. */
async function teamWithConnection(label: string, connection: object) {
  const domain = `${label}-${randomUUID().slice(0, 8)}.test`;
  const team = await server('POST', '/teams', { display_name: `${label} Inc` });
  expect(team.status, team.text).toBe(201);
  const claim = await server('POST', '/sso/domains', { team_id: team.body.id, domain });
  expect(claim.status, claim.text).toBe(201);
  dns.publish(claim.body.verification_record_name, claim.body.verification_record_value);
  const verified = await server('POST', `/sso/domains/${claim.body.id}/verify`);
  expect(verified.status, verified.text).toBe(200);
  const created = await server('POST', '/sso/connections', { team_id: team.body.id, ...connection });
  expect(created.status, created.text).toBe(201);
  return { domain, teamId: team.body.id as string, connection: created.body };
}

async function teamMemberEmails(teamId: string): Promise<string[]> {
  const members = await server('GET', `/team-member-profiles?team_id=${teamId}`);
  expect(members.status, members.text).toBe(200);
  return (members.body.items as Array<{ user: { primary_email: string } }>).map((member) => member.user.primary_email);
}

async function continueWithEmail(page: Page, email: string) {
  await page.goto(`${env.platform.url}/handler/sign-in`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
}

describe('SSO sign-in in Chromium (email first)', () => {
  it('signs in through a SAML IdP, JIT into the team; a forged assertion ends on the error page', { timeout: 180_000 }, async () => {
    const shot = screenshots('sso-saml');
    const acme = await teamWithConnection('acme', {
      protocol: 'saml',
      display_name: 'Acme SAML',
      saml: { idp_metadata_xml: saml.idp.metadata() },
    });
    samlEntityId = acme.connection.saml.sp_entity_id;
    const email = `ada@${acme.domain}`;
    const page = await env.browser.newPage();
    await continueWithEmail(page, email);
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 20_000 }).toBe('/sso');
    await shot(page, 'idp-login');
    await page.getByLabel('IdP email').fill(email);
    await page.getByRole('button', { name: 'Sign in at the IdP' }).click();
    await expect.poll(() => greetingOf(page), { timeout: 30_000 }).toBe('Hello, SAML ada');
    await shot(page, 'signed-in');
    expect(await teamMemberEmails(acme.teamId)).toEqual([email]);

    // The IdP's answer altered after signing: refused, shown with its catalogued code.
    await signOutViaPage(page, env.platform.url);
    saml.state.tamperNext = true;
    await continueWithEmail(page, `grace@${acme.domain}`);
    await page.getByLabel('IdP email').fill(`grace@${acme.domain}`);
    await page.getByRole('button', { name: 'Sign in at the IdP' }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toBe('/handler/error');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The SAML response was refused (signature_invalid)');
    expect(await page.textContent('body')).toContain('SSO_RESPONSE_INVALID');
    await shot(page, 'forged-refused');
    expect(await teamMemberEmails(acme.teamId)).toEqual([email]);
  });

  it('signs in through an OpenID provider, JIT into the team', { timeout: 180_000 }, async () => {
    const globex = await teamWithConnection('globex', {
      protocol: 'oidc',
      display_name: 'Globex OIDC',
      oidc: { issuer: oidc.issuer, client_id: 'gatehouse-demo', client_secret: 'oidc-demo-secret' },
    });
    oidc.configure({ clientId: 'gatehouse-demo', clientSecret: 'oidc-demo-secret', redirectUri: globex.connection.oidc.redirect_uri });
    const email = `hopper@${globex.domain}`;
    const page = await env.browser.newPage();
    await continueWithEmail(page, email);
    await expect.poll(() => page.url().startsWith(oidc.issuer), { timeout: 20_000 }).toBe(true);
    await page.locator('input[name="login"]').fill(email);
    await page.locator('input[name="password"]').fill('any');
    await page.locator('button[type="submit"]').click();
    // The provider's consent page, then back through the callback to the app.
    await page.locator('button[type="submit"]').click();
    await expect.poll(() => greetingOf(page), { timeout: 30_000 }).toBe('Hello, OIDC hopper');
    expect(page.url()).not.toMatch(/[?&](code|state)=/);
    expect(await teamMemberEmails(globex.teamId)).toEqual([email]);
  });

  it('sends an email without SSO on to the usual methods, the address kept', { timeout: 120_000 }, async () => {
    const user = await createPasswordUser(env.platform, 'plain');
    const page = await env.browser.newPage();
    await continueWithEmail(page, user.email);
    await expect.poll(() => page.getByLabel('Password', { exact: true }).isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => greetingOf(page), { timeout: 20_000 }).toBe(`Hello, ${user.email}`);
  });
});
