import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTxtDnsServer } from '@gatehouse/testing/dns-server';
import { expectError } from '@gatehouse/testing/expect-response';
import { trustedDomains } from '@gatehouse/testing/oauth-test-flow';
import { TestSamlIdp } from '@gatehouse/testing/saml-idp';
import { createTestContext, type TestContext, type TestProject } from '@gatehouse/testing/test-context';
import { ssoFlows } from '@gatehouse/testing/sso-test-helpers';

/**
 * Verified domains against a local DNS server (dns2): the TXT proof, enrolment of new users by the
 * domain's policy, home-realm discovery, the merge strategy for an existing account, and the
 * connection and domain operations' answers.
 */
let context: TestContext;
let project: TestProject;
let dns: Awaited<ReturnType<typeof startTxtDnsServer>>;
const flows = ssoFlows(() => context);

beforeAll(async () => {
  dns = await startTxtDnsServer();
  context = await createTestContext({ settings: { sso: { dnsServers: [dns.address] } } });
  project = await context.createProject({ 'domains.trustedDomains': trustedDomains, 'auth.password.allowSignIn': true });
});
afterAll(async () => {
  await context?.close();
  await dns?.close();
});

const server = () => project.headers.server;
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  context.request({ method, url: `/api/v1${url}`, headers: server(), ...(payload ? { payload } : {}) });

async function newTeam(name: string): Promise<string> {
  return (await context.services.teams.create(project.project, { display_name: name })).id;
}

async function signUp(email: string): Promise<string> {
  const answer = await call('POST', '/users', { primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.id;
}

describe('verified domains', () => {
  it('verifies by TXT record, enrols new users by policy, and an unverified or removed record changes nothing', async () => {
    const domain = `globex-${Date.now()}.test`;
    const teamId = await newTeam('Globex');
    const created = await call('POST', '/sso/domains', { team_id: teamId, domain: domain.toUpperCase(), enrolment_policy: 'automatic' });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ domain, verified: false, verification_record_name: `_gatehouse-verification.${domain}` });
    const id = created.body.id as string;

    // Unverified: a new user on the domain joins nothing.
    const early = await signUp(`early@${domain}`);
    expect(await context.services.teams.isMember(project.project.id, teamId, early)).toBe(false);

    // No record (or a wrong one): refused, nothing changes.
    dns.publish(created.body.verification_record_name, 'gatehouse-domain-verification=wrong');
    expectError(await call('POST', `/sso/domains/${id}/verify`), 400, 'TEAM_DOMAIN_VERIFICATION_FAILED', {
      domain,
      record_name: created.body.verification_record_name,
      record_value: created.body.verification_record_value,
    });
    dns.publish(created.body.verification_record_name, created.body.verification_record_value);
    const verified = await call('POST', `/sso/domains/${id}/verify`);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.verified).toBe(true);

    const joined = await signUp(`new@${domain}`);
    expect(await context.services.teams.isMember(project.project.id, teamId, joined)).toBe(true);
    // Another domain, and an unverified address on this one, join nothing.
    expect(await context.services.teams.isMember(project.project.id, teamId, await signUp(`someone@other-${domain}`))).toBe(false);
    const unverifiedAddress = await call('POST', '/users', { primary_email: `unverified@${domain}`, primary_email_verified: false });
    expect(await context.services.teams.isMember(project.project.id, teamId, unverifiedAddress.body.id)).toBe(false);

    // Another team cannot verify the same domain.
    const rival = await call('POST', '/sso/domains', { team_id: await newTeam('Rival'), domain });
    dns.publish(rival.body.verification_record_name, rival.body.verification_record_value);
    expectError(await call('POST', `/sso/domains/${rival.body.id}/verify`), 409, 'TEAM_DOMAIN_ALREADY_VERIFIED', { domain });

    // Suggestion and invitation-only policies do not join.
    expect((await call('PATCH', `/sso/domains/${id}`, { enrolment_policy: 'suggestion' })).body.enrolment_policy).toBe('suggestion');
    expect(await context.services.teams.isMember(project.project.id, teamId, await signUp(`suggested@${domain}`))).toBe(false);

    // The record removed: the next check unverifies, and enrolment stops.
    await call('PATCH', `/sso/domains/${id}`, { enrolment_policy: 'automatic' });
    dns.remove(created.body.verification_record_name);
    expectError(await call('POST', `/sso/domains/${id}/verify`), 400, 'TEAM_DOMAIN_VERIFICATION_FAILED');
    const list = await call('GET', `/sso/domains?team_id=${teamId}`);
    expect(list.body.items).toEqual([expect.objectContaining({ id, verified: false })]);
    expect(await context.services.teams.isMember(project.project.id, teamId, await signUp(`late@${domain}`))).toBe(false);

    expect((await call('DELETE', `/sso/domains/${id}`)).body).toEqual({ success: true });
    expectError(await call('DELETE', `/sso/domains/${id}`), 404, 'TEAM_DOMAIN_NOT_FOUND');
    expectError(await call('PATCH', `/sso/domains/${id}`, { enrolment_policy: 'automatic' }), 404, 'TEAM_DOMAIN_NOT_FOUND');
    expectError(await call('POST', `/sso/domains/${id}/verify`), 404, 'TEAM_DOMAIN_NOT_FOUND');
    expectError(await call('POST', '/sso/domains', { team_id: '00000000-0000-4000-8000-000000000000', domain }), 404, 'TEAM_NOT_FOUND');
  });
});

describe('home-realm discovery and the merge strategy', () => {
  it('sends an email on a verified domain to its team connection, and links an existing account only when the team owns the domain', async () => {
    const domain = `initech-${Date.now()}.test`;
    const teamId = await newTeam('Initech');
    const idp = await TestSamlIdp.create();
    const created = await call('POST', '/sso/connections', {
      team_id: teamId,
      protocol: 'saml',
      display_name: 'Initech',
      saml: { idp_metadata_xml: idp.metadata() },
    });
    const connection = created.body;
    const discover = (email: string) =>
      context.request({ method: 'POST', url: '/api/v1/auth/sso/discover', headers: project.headers.client, payload: { email } });
    expect((await discover(`bob@${domain}`)).body).toEqual({ connection_id: null, protocol: null });

    // An existing account, before the team owns the domain: the IdP cannot take it.
    const existing = `carol@${domain}`;
    const existingId = await signUp(existing);
    const signInAs = async (email: string) => {
      const { verifier, location } = await flows.authorize(project, connection.id);
      const request = TestSamlIdp.readRequest(location);
      const samlResponse = await idp.response({
        acsUrl: request.acsUrl,
        audience: connection.saml.sp_entity_id,
        email,
        inResponseTo: request.id,
      });
      return { answer: await flows.postAcs(connection.id, samlResponse), verifier };
    };
    expectError((await signInAs(existing)).answer, 409, 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE');

    const claim = await call('POST', '/sso/domains', { team_id: teamId, domain });
    dns.publish(claim.body.verification_record_name, claim.body.verification_record_value);
    expect((await call('POST', `/sso/domains/${claim.body.id}/verify`)).status).toBe(200);
    expect((await discover(`Bob@${domain.toUpperCase()}`)).body).toEqual({ connection_id: connection.id, protocol: 'saml' });
    expect((await discover('bob@elsewhere.test')).body).toEqual({ connection_id: null, protocol: null });

    // The domain is the team's: link_method (the default) links the verified existing account.
    const linked = await signInAs(existing);
    expect(linked.answer.status, linked.answer.text).toBe(303);
    const tokens = await flows.exchange(project, String(linked.answer.headers.location), linked.verifier);
    expect(tokens.is_new_user).toBe(false);
    const me = await context.request({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: { ...project.headers.client, 'x-stack-access-token': tokens.access_token },
    });
    expect(me.body.id).toBe(existingId);

    // A disabled connection is not offered, nor can it be started.
    await call('PATCH', `/sso/connections/${connection.id}`, { enabled: false });
    expect((await discover(`bob@${domain}`)).body.connection_id).toBeNull();
    expectError((await flows.authorize(project, connection.id)).response, 404, 'SSO_CONNECTION_NOT_FOUND');
  });
});

describe('connection operations', () => {
  it('creates, reads, lists, updates and deletes; refuses unusable settings', async () => {
    const teamId = await newTeam('Umbrella');
    const idp = await TestSamlIdp.create();
    for (const [payload, reason] of [
      [{ idp_metadata_xml: '<not xml' }, 'not well-formed XML'],
      [{ idp_metadata_xml: '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>' }, 'no IDPSSODescriptor'],
      [{ idp_metadata_xml: idp.metadata([]) }, 'no readable signing certificate (KeyDescriptor X509Certificate)'],
    ] as const) {
      expectError(
        await call('POST', '/sso/connections', { team_id: teamId, protocol: 'saml', display_name: 'x', saml: payload }),
        400,
        'SSO_CONNECTION_CONFIG_INVALID',
        { reason },
      );
    }
    expectError(
      await call('POST', '/sso/connections', {
        team_id: teamId,
        protocol: 'saml',
        display_name: 'x',
        saml: { idp_metadata_xml: idp.metadata() },
        idp_initiated_redirect_url: 'https://evil.example.net/',
      }),
      400,
      'REDIRECT_URL_NOT_WHITELISTED',
    );
    expectError(
      await call('POST', '/sso/connections', {
        team_id: '00000000-0000-4000-8000-000000000000',
        protocol: 'saml',
        display_name: 'x',
        saml: { idp_metadata_xml: idp.metadata() },
      }),
      404,
      'TEAM_NOT_FOUND',
    );
    const created = await call('POST', '/sso/connections', {
      team_id: teamId,
      protocol: 'saml',
      display_name: 'Umbrella',
      saml: { idp_metadata_xml: idp.metadata() },
    });
    const id = created.body.id as string;
    expect((await call('GET', `/sso/connections/${id}`)).body).toEqual(created.body);
    expect((await call('GET', `/sso/connections?team_id=${teamId}`)).body.items).toEqual([created.body]);
    expectError(
      await call('PATCH', `/sso/connections/${id}`, { oidc: { issuer: 'https://idp.example.com', client_id: 'a', client_secret: 'b' } }),
      400,
      'SSO_CONNECTION_CONFIG_INVALID',
    );
    expect((await call('PATCH', `/sso/connections/${id}`, { display_name: 'Umbrella Corp' })).body.display_name).toBe('Umbrella Corp');
    expect((await call('DELETE', `/sso/connections/${id}`)).body).toEqual({ success: true });
    expectError(await call('GET', `/sso/connections/${id}`), 404, 'SSO_CONNECTION_NOT_FOUND');
    expectError(await call('PATCH', `/sso/connections/${id}`, { enabled: true }), 404, 'SSO_CONNECTION_NOT_FOUND');
    expectError(await call('DELETE', `/sso/connections/${id}`), 404, 'SSO_CONNECTION_NOT_FOUND');
    expectError(await context.request({ method: 'GET', url: `/api/v1/auth/sso/saml/${id}/metadata` }), 404, 'SSO_CONNECTION_NOT_FOUND');
  });

  it('refuses an authorize with an unknown client or an untrusted redirect', async () => {
    const teamId = await newTeam('Hooli');
    const idp = await TestSamlIdp.create();
    const { body } = await call('POST', '/sso/connections', {
      team_id: teamId,
      protocol: 'saml',
      display_name: 'Hooli',
      saml: { idp_metadata_xml: idp.metadata() },
    });
    const other = await context.createProject();
    expectError((await flows.authorize(other, body.id)).response, 404, 'SSO_CONNECTION_NOT_FOUND');
    expectError(
      (await flows.authorize(project, body.id, { client_id: '00000000-0000-4000-8000-000000000000' })).response,
      400,
      'INVALID_OAUTH_CLIENT_ID_OR_SECRET',
    );
    expectError(
      (await flows.authorize(project, body.id, { redirect_uri: 'https://evil.example.net/cb' })).response,
      400,
      'REDIRECT_URL_NOT_WHITELISTED',
    );
  });
});
