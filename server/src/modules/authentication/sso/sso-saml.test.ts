import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTxtDnsServer } from '@gatehouse/testing/dns-server';
import { expectError } from '@gatehouse/testing/expect-response';
import { trustedDomains } from '@gatehouse/testing/oauth-test-flow';
import { TestSamlIdp } from '@gatehouse/testing/saml-idp';
import { createTestContext, type TestContext, type TestProject } from '@gatehouse/testing/test-context';
import { newEmail, ssoFlows } from '@gatehouse/testing/sso-test-helpers';

/**
 * SAML sign-in through a team's connection, against a local IdP that signs (and encrypts) real
 * XML: SP-initiated with JIT provisioning into the team, IdP-initiated, certificate rotation, and
 * the refusals (tampered, unsigned, expired, replayed, malformed), each a catalogued 4xx.
 */
let context: TestContext;
let project: TestProject;
let dns: Awaited<ReturnType<typeof startTxtDnsServer>>;
let idp: TestSamlIdp;
let teamId: string;
let connection: { id: string; saml: { sp_entity_id: string; sp_acs_url: string; sp_metadata_url: string } };
const flows = ssoFlows(() => context);

beforeAll(async () => {
  dns = await startTxtDnsServer();
  context = await createTestContext({ settings: { sso: { dnsServers: [dns.address] } } });
  project = await context.createProject({ 'domains.trustedDomains': trustedDomains, 'domains.allowLocalhost': true });
  idp = await TestSamlIdp.create();
  const team = await context.services.teams.create(project.project, { display_name: 'Acme' });
  teamId = team.id;
  await context.request({
    method: 'POST',
    url: '/api/v1/team-permission-definitions',
    headers: project.headers.admin,
    payload: { id: 'acme_admin' },
  });
  const created = await context.request({
    method: 'POST',
    url: '/api/v1/sso/connections',
    headers: project.headers.server,
    payload: {
      team_id: teamId,
      protocol: 'saml',
      display_name: 'Acme Okta',
      saml: { idp_metadata_xml: idp.metadata(), allow_idp_initiated: true },
      attribute_mapping: { group_permissions: { Admins: ['acme_admin'] } },
      idp_initiated_redirect_url: 'https://app.example.com/handler/sign-in',
    },
  });
  expect(created.status, created.text).toBe(201);
  connection = created.body;
});
afterAll(async () => {
  await context?.close();
  await dns?.close();
});

async function spInitiated(email: string, options: Parameters<TestSamlIdp['response']>[0] extends infer O ? Partial<O> : never = {}) {
  const { response, verifier, location } = await flows.authorize(project, connection.id);
  expect(response.status, response.text).toBe(307);
  const request = TestSamlIdp.readRequest(location);
  expect(location.startsWith(idp.ssoUrl)).toBe(true);
  expect(request.acsUrl).toBe(connection.saml.sp_acs_url);
  const samlResponse = await idp.response({
    acsUrl: request.acsUrl,
    audience: connection.saml.sp_entity_id,
    email,
    inResponseTo: request.id,
    ...options,
  });
  return { samlResponse, verifier, requestId: request.id };
}

const me = async (accessToken: string) =>
  (
    await context.request({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: { ...project.headers.client, 'x-stack-access-token': accessToken },
    })
  ).body as { id: string; primary_email: string; display_name: string | null; primary_email_verified: boolean };

describe('SAML sign-in', () => {
  it('signs a new person in (JIT), makes them a member of the team and grants the permissions of their IdP groups', async () => {
    const email = newEmail('alice');
    const { samlResponse, verifier } = await spInitiated(email, { name: 'Alice Admin', groups: ['Admins', 'Everyone'] });
    const answer = await flows.postAcs(connection.id, samlResponse);
    expect(answer.status, answer.text).toBe(303);
    const tokens = await flows.exchange(project, String(answer.headers.location), verifier);
    expect(tokens.is_new_user).toBe(true);
    const user = await me(tokens.access_token);
    expect(user.primary_email).toBe(email);
    expect(user.display_name).toBe('Alice Admin');
    expect(await context.services.teams.isMember(project.project.id, teamId, user.id)).toBe(true);
    const grants = await context.request({
      method: 'GET',
      url: `/api/v1/team-permissions?team_id=${teamId}&user_id=${user.id}`,
      headers: project.headers.server,
    });
    expect(grants.status, grants.text).toBe(200);
    expect(grants.body.items.map((item: { id: string }) => item.id)).toContain('acme_admin');

    // The second sign-in finds the same user.
    const again = await spInitiated(email);
    const second = await flows.exchange(
      project,
      String((await flows.postAcs(connection.id, again.samlResponse)).headers.location),
      again.verifier,
    );
    expect(second.is_new_user).toBe(false);
    expect((await me(second.access_token)).id).toBe(user.id);
  });

  it('accepts an encrypted assertion (decrypted with the connection key published in the SP metadata)', async () => {
    const metadata = await context.request({ method: 'GET', url: new URL(connection.saml.sp_metadata_url).pathname });
    expect(metadata.status).toBe(200);
    expect(String(metadata.headers['content-type'])).toContain('application/samlmetadata+xml');
    const certificate = /<(?:ds:)?X509Certificate>([^<]+)</.exec(metadata.text)?.[1] as string;
    expect(metadata.text).toContain(connection.saml.sp_acs_url);
    const pem = `-----BEGIN CERTIFICATE-----\n${certificate.match(/.{1,64}/g)?.join('\n')}\n-----END CERTIFICATE-----\n`;
    const email = newEmail('encrypted');
    const { samlResponse, verifier } = await spInitiated(email, { encryptTo: pem });
    expect(Buffer.from(samlResponse, 'base64').toString()).toContain('EncryptedAssertion');
    const answer = await flows.postAcs(connection.id, samlResponse);
    expect(answer.status, answer.text).toBe(303);
    expect((await me((await flows.exchange(project, String(answer.headers.location), verifier)).access_token)).primary_email).toBe(email);
  });

  it('refuses a tampered, an unsigned, an expired, a replayed and a foreign-audience assertion', async () => {
    const tampered = await spInitiated(newEmail('tampered'));
    const xml = Buffer.from(tampered.samlResponse, 'base64').toString();
    const forged = Buffer.from(xml.replace(/(<saml:AttributeValue>)[^<]+/, '$1ceo@acme.test')).toString('base64');
    expectError(await flows.postAcs(connection.id, forged), 400, 'SSO_RESPONSE_INVALID', { protocol: 'saml', reason: 'signature_invalid' });

    const unsigned = await spInitiated(newEmail('unsigned'), { sign: false });
    expectError(await flows.postAcs(connection.id, unsigned.samlResponse), 400, 'SSO_RESPONSE_INVALID', {
      protocol: 'saml',
      reason: 'unsigned',
    });

    const expired = await spInitiated(newEmail('expired'), {
      notBefore: new Date(Date.now() - 3_600_000),
      notOnOrAfter: new Date(Date.now() - 600_000),
    });
    expectError(await flows.postAcs(connection.id, expired.samlResponse), 400, 'SSO_RESPONSE_INVALID', {
      protocol: 'saml',
      reason: 'expired',
    });

    const replayed = await spInitiated(newEmail('replayed'));
    expect((await flows.postAcs(connection.id, replayed.samlResponse)).status).toBe(303);
    expectError(await flows.postAcs(connection.id, replayed.samlResponse), 400, 'SSO_RESPONSE_INVALID', {
      protocol: 'saml',
      reason: 'replayed',
    });

    const foreign = await spInitiated(newEmail('foreign'), { audience: 'https://other-sp.example.com/metadata' });
    expectError(await flows.postAcs(connection.id, foreign.samlResponse), 400, 'SSO_RESPONSE_INVALID', {
      protocol: 'saml',
      reason: 'audience',
    });

    // A response to a request this server never made.
    const stray = await idp.response({
      acsUrl: connection.saml.sp_acs_url,
      audience: connection.saml.sp_entity_id,
      email: newEmail('stray'),
      inResponseTo: '_never',
    });
    expectError(await flows.postAcs(connection.id, stray), 400, 'SSO_RESPONSE_INVALID', { protocol: 'saml', reason: 'unknown_request' });
  });

  it('answers malformed input with a catalogued 4xx', async () => {
    for (const bad of [
      'not base64 at all!',
      Buffer.from('<html>').toString('base64'),
      Buffer.from(
        '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">&a;</samlp:Response>',
      ).toString('base64'),
      Buffer.from('<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"><unclosed>').toString('base64'),
    ]) {
      expectError(await flows.postAcs(connection.id, bad), 400, 'SSO_RESPONSE_INVALID', { protocol: 'saml', reason: 'malformed' });
    }
    const missing = await context.request({
      method: 'POST',
      url: `/api/v1/auth/sso/saml/${connection.id}/acs`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'RelayState=x',
    });
    expectError(missing, 400, 'SCHEMA_ERROR');
    const unreadable = await context.request({
      method: 'POST',
      url: `/api/v1/auth/sso/saml/${connection.id}/acs`,
      headers: { 'content-type': 'application/json' },
      payload: '{"SAMLResponse":',
    });
    expect(unreadable.status).toBe(400);
    expectError(await flows.postAcs('00000000-0000-4000-8000-000000000000', 'x'), 404, 'SSO_CONNECTION_NOT_FOUND');
  });

  it('sends an IdP-initiated sign-in to the app, which starts an SP-initiated one', async () => {
    const samlResponse = await idp.response({
      acsUrl: connection.saml.sp_acs_url,
      audience: connection.saml.sp_entity_id,
      email: newEmail('idp'),
    });
    const answer = await flows.postAcs(connection.id, samlResponse);
    expect(answer.status, answer.text).toBe(303);
    expect(String(answer.headers.location)).toBe(`https://app.example.com/handler/sign-in?sso_connection_id=${connection.id}`);
  });

  it('keeps a rotated-out certificate for its overlap only', async () => {
    const old = await idp.rotate();
    const patched = await context.request({
      method: 'PATCH',
      url: `/api/v1/sso/connections/${connection.id}`,
      headers: project.headers.server,
      payload: { saml: { idp_metadata_xml: idp.metadata(), allow_idp_initiated: true, certificate_overlap_seconds: 3600 } },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.saml.certificates).toHaveLength(2);
    const withOld = await spInitiated(newEmail('old-key'), { signWith: old });
    expect((await flows.postAcs(connection.id, withOld.samlResponse)).status).toBe(303);
    const withNew = await spInitiated(newEmail('new-key'));
    expect((await flows.postAcs(connection.id, withNew.samlResponse)).status).toBe(303);
    // No overlap: the old key is refused at once.
    const rotatedAgain = await context.request({
      method: 'PATCH',
      url: `/api/v1/sso/connections/${connection.id}`,
      headers: project.headers.server,
      payload: { saml: { idp_metadata_xml: idp.metadata(), allow_idp_initiated: true, certificate_overlap_seconds: 0 } },
    });
    expect(rotatedAgain.body.saml.certificates.filter((c: { retires_at: string | null }) => c.retires_at === null)).toHaveLength(1);
    const third = await idp.rotate();
    await context.request({
      method: 'PATCH',
      url: `/api/v1/sso/connections/${connection.id}`,
      headers: project.headers.server,
      payload: { saml: { idp_metadata_xml: idp.metadata(), allow_idp_initiated: true, certificate_overlap_seconds: 0 } },
    });
    const stale = await spInitiated(newEmail('stale-key'), { signWith: third });
    expectError(await flows.postAcs(connection.id, stale.samlResponse), 400, 'SSO_RESPONSE_INVALID', {
      protocol: 'saml',
      reason: 'signature_invalid',
    });
  });
});
