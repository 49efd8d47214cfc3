import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTxtDnsServer } from '@gatehouse/testing/dns-server';
import { type SamlIdpFault, startSamlIdpWeb } from '@gatehouse/testing/saml-idp-web';
import { screenshots } from './chromium.ts';
import { greetingOf, signOutViaPage, withDemoInChromium } from './e2e-environment.ts';

/**
 * SAML answers the service provider must refuse, in a real Chromium from the app's sign-in page
 * (email first → the team's IdP → its answer posted to the ACS): an unsigned, an expired and a
 * replayed assertion each end on the handler's error page with SSO_RESPONSE_INVALID and its reason,
 * and nobody is signed in (no JIT member, the app still signed out). The forged one is in sso.test.ts.
 */
let dns: Awaited<ReturnType<typeof startTxtDnsServer>>;
let saml: Awaited<ReturnType<typeof startSamlIdpWeb>>;
let samlEntityId = '';
let team: { id: string; domain: string };
// Registered before the platform's start, which reads the DNS server's address.
beforeAll(async () => {
  [dns, saml] = await Promise.all([startTxtDnsServer(), startSamlIdpWeb(() => samlEntityId)]);
}, 60_000);
const env = withDemoInChromium({ 'auth.emailFirst': true }, { settings: () => ({ sso: { dnsServers: [dns.address] } }) });
afterAll(async () => {
  await Promise.all([dns?.close(), saml?.close()]);
});

const server = (method: 'GET' | 'POST', url: string, payload?: object) =>
  env.platform.context.request({
    method,
    url: `/api/v1${url}`,
    headers: env.platform.project.headers.server,
    ...(payload ? { payload } : {}),
  });

beforeAll(async () => {
  const domain = `refusing-${randomUUID().slice(0, 8)}.test`;
  const created = await server('POST', '/teams', { display_name: 'Refusing Inc' });
  expect(created.status, created.text).toBe(201);
  const claim = await server('POST', '/sso/domains', { team_id: created.body.id, domain });
  expect(claim.status, claim.text).toBe(201);
  dns.publish(claim.body.verification_record_name, claim.body.verification_record_value);
  expect((await server('POST', `/sso/domains/${claim.body.id}/verify`)).status).toBe(200);
  const connection = await server('POST', '/sso/connections', {
    team_id: created.body.id,
    protocol: 'saml',
    display_name: 'Refusing SAML',
    saml: { idp_metadata_xml: saml.idp.metadata() },
  });
  expect(connection.status, connection.text).toBe(201);
  samlEntityId = connection.body.saml.sp_entity_id;
  team = { id: created.body.id, domain };
}, 120_000);

async function teamMemberEmails(): Promise<string[]> {
  const members = await server('GET', `/team-member-profiles?team_id=${team.id}`);
  expect(members.status, members.text).toBe(200);
  return (members.body.items as Array<{ user: { primary_email: string } }>).map((member) => member.user.primary_email).sort();
}

/** From the sign-in page a person opens, through the IdP's login, to wherever the IdP's answer leads. */
async function signInAtIdp(page: Page, email: string, fault: SamlIdpFault | null) {
  await page.goto(`${env.platform.url}/handler/sign-in`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toBe('/sso');
  saml.state.faultNext = fault;
  await page.getByLabel('IdP email').fill(email);
  await page.getByRole('button', { name: 'Sign in at the IdP' }).click();
}

async function expectRefused(page: Page, reason: string) {
  await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toBe('/handler/error');
  await expect
    .poll(() => page.getByRole('alert').textContent(), { timeout: 20_000 })
    .toContain(`The SAML response was refused (${reason})`);
  expect(await page.textContent('body')).toContain('SSO_RESPONSE_INVALID');
  // Nobody signed in: the app's home still greets a visitor.
  await page.goto(`${env.platform.url}/`);
  await expect.poll(() => page.getByRole('heading', { name: 'Welcome to the demo app' }).isVisible(), { timeout: 20_000 }).toBe(true);
  expect(await page.getByTestId('greeting').count()).toBe(0);
}

describe('refused SAML answers in Chromium', () => {
  it('refuses an unsigned assertion', { timeout: 180_000 }, async () => {
    const before = await teamMemberEmails();
    const page = await env.browser.newPage();
    await signInAtIdp(page, `unsigned@${team.domain}`, 'unsigned');
    await expectRefused(page, 'unsigned');
    await screenshots('sso-refusals')(page, 'unsigned-refused');
    expect(await teamMemberEmails()).toEqual(before);
  });

  it('refuses an expired assertion', { timeout: 180_000 }, async () => {
    const before = await teamMemberEmails();
    const page = await env.browser.newPage();
    await signInAtIdp(page, `expired@${team.domain}`, 'expired');
    await expectRefused(page, 'expired');
    expect(await teamMemberEmails()).toEqual(before);
  });

  it('refuses an assertion used before, posted again for a new sign-in', { timeout: 180_000 }, async () => {
    const page = await env.browser.newPage();
    const email = `replayed@${team.domain}`;
    await signInAtIdp(page, email, null);
    await expect.poll(() => greetingOf(page), { timeout: 30_000 }).toBe('Hello, SAML replayed');
    await signOutViaPage(page, env.platform.url);
    const before = await teamMemberEmails();

    await signInAtIdp(page, email, 'replay');
    await expectRefused(page, 'replayed');
    expect(await teamMemberEmails()).toEqual(before);
  });
});
