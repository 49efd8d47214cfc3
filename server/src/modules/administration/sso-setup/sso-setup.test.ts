import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTxtDnsServer } from '@gatehouse/testing/dns-server';
import { trustedDomains } from '@gatehouse/testing/oauth-test-flow';
import { TestSamlIdp } from '@gatehouse/testing/saml-idp';
import { ssoFlows } from '@gatehouse/testing/sso-test-helpers';
import { createTestContext, type TestContext, type TestProject } from '@gatehouse/testing/test-context';

/**
 * Self-serve SSO setup: the owner's link, its one exchange for a setup session, and what the team's IT admin
 * configures with it (SAML connection, domain verified against a local DNS server, SCIM directory), after which
 * an SSO sign-in works; the link's refusals (unknown, used, expired, revoked) each with its catalogued error.
 */
let context: TestContext;
let project: TestProject;
let dns: Awaited<ReturnType<typeof startTxtDnsServer>>;
let idp: TestSamlIdp;
const flows = ssoFlows(() => context);

beforeAll(async () => {
  dns = await startTxtDnsServer();
  context = await createTestContext({ settings: { sso: { dnsServers: [dns.address] } } });
  project = await context.createProject({ 'domains.trustedDomains': trustedDomains, 'domains.allowLocalhost': true });
  idp = await TestSamlIdp.create();
});
afterAll(async () => {
  await context?.close();
  await dns?.close();
});

const newTeam = async (name: string) => (await context.services.teams.create(project.project, { display_name: name })).id;
const createLink = (teamId: string, payload: object = {}, owner: TestProject = project) =>
  context.request({ method: 'POST', url: `/api/v1/teams/${teamId}/sso-setup-links`, headers: owner.headers.server, payload });
const exchange = (token: string) => context.request({ method: 'POST', url: '/api/v1/sso-setup/sessions', payload: { token } });
/** A call of the setup session's operations with its bearer token. */
const asAdmin = (sessionToken: string | undefined, method: 'GET' | 'POST', path: string, payload?: object) =>
  context.request({
    method,
    url: `/api/v1/sso-setup/current${path}`,
    headers: sessionToken === undefined ? {} : { authorization: `Bearer ${sessionToken}` },
    ...(payload ? { payload } : {}),
  });
const openSession = async (teamId: string) => {
  const link = await createLink(teamId);
  expect(link.status, link.text).toBe(201);
  const opened = await exchange(link.body.token);
  expect(opened.status, opened.text).toBe(201);
  return { link: link.body, sessionToken: opened.body.session_token as string };
};
const auditEntries = async (query: string) =>
  (await context.request({ method: 'GET', url: `/api/v1/audit-log?limit=200${query}`, headers: project.headers.admin })).body.items as {
    action: string;
    actor_type: string;
    actor_id: string;
  }[];

describe('self-serve SSO setup', () => {
  it("lets the team's IT admin configure SAML, a verified domain and SCIM with a link, then SSO sign-in works", async () => {
    const teamId = await newTeam('Initech');
    const link = await createLink(teamId, { expires_in_minutes: 60 });
    expect(link.body).toMatchObject({ team_id: teamId, status: 'active', used_at_millis: null, revoked_at_millis: null });
    expect(link.body.url).toBe(`${new URL(link.body.url).origin}/dashboard/sso-setup#token=${link.body.token}`);
    expect(link.body.expires_at_millis - Date.now()).toBeGreaterThan(59 * 60_000);
    const opened = await exchange(link.body.token);
    expect(opened.status, opened.text).toBe(201);
    expect(opened.body.team_id).toBe(teamId);
    const session = opened.body.session_token as string;

    const empty = await asAdmin(session, 'GET', '');
    expect(empty.status, empty.text).toBe(200);
    expect(empty.body).toMatchObject({ team_id: teamId, team_display_name: 'Initech', connections: [], domains: [], scim_directories: [] });

    const connection = await asAdmin(session, 'POST', '/connections', {
      protocol: 'saml',
      display_name: 'Initech Okta',
      saml: { idp_metadata_xml: idp.metadata() },
    });
    expect(connection.status, connection.text).toBe(201);
    expect(connection.body).toMatchObject({ team_id: teamId, protocol: 'saml', idp_initiated_redirect_url: null });
    const domainName = `initech-${Date.now()}.test`;
    const domain = await asAdmin(session, 'POST', '/domains', { domain: domainName });
    expect(domain.status, domain.text).toBe(201);
    expect(domain.body).toMatchObject({ team_id: teamId, verified: false });
    const notYet = await asAdmin(session, 'POST', `/domains/${domain.body.id}/verify`);
    expect(notYet.status).toBe(400);
    expect(notYet.body.code).toBe('TEAM_DOMAIN_VERIFICATION_FAILED');
    dns.publish(domain.body.verification_record_name, domain.body.verification_record_value);
    const verified = await asAdmin(session, 'POST', `/domains/${domain.body.id}/verify`);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.verified).toBe(true);
    const directory = await asAdmin(session, 'POST', '/scim-directories', { display_name: 'Initech Okta' });
    expect(directory.status, directory.text).toBe(201);
    const scim = await context.request({
      method: 'GET',
      url: `/api/v1/scim/v2/${directory.body.id}/Users`,
      headers: { authorization: `Bearer ${directory.body.token}` },
    });
    expect(scim.status).toBe(200);
    const overview = await asAdmin(session, 'GET', '');
    expect(overview.body.connections.map((row: { id: string }) => row.id)).toEqual([connection.body.id]);
    expect(overview.body.domains).toEqual([expect.objectContaining({ domain: domainName, verified: true })]);
    expect(overview.body.scim_directories).toEqual([expect.objectContaining({ id: directory.body.id })]);
    expect(overview.text).not.toContain(directory.body.token);

    // Home-realm discovery finds the new connection, and a SAML sign-in through it lands in the team.
    const discovered = await context.request({
      method: 'POST',
      url: '/api/v1/auth/sso/discover',
      headers: project.headers.client,
      payload: { email: `pat@${domainName}` },
    });
    expect(discovered.body).toEqual({ connection_id: connection.body.id, protocol: 'saml' });
    const { response, verifier, location } = await flows.authorize(project, connection.body.id);
    expect(response.status, response.text).toBe(307);
    const request = TestSamlIdp.readRequest(location);
    const samlResponse = await idp.response({
      acsUrl: request.acsUrl,
      audience: connection.body.saml.sp_entity_id,
      email: `pat@${domainName}`,
      inResponseTo: request.id,
    });
    const answer = await flows.postAcs(connection.body.id, samlResponse);
    expect(answer.status, answer.text).toBe(303);
    const tokens = await flows.exchange(project, String(answer.headers.location), verifier);
    expect(tokens.is_new_user).toBe(true);

    // Each change is in the audit log with the setup link as its actor.
    const byLink = (await auditEntries(`&team_id=${teamId}`)).filter((entry) => entry.actor_type === 'sso_setup_link');
    expect(new Set(byLink.map((entry) => entry.actor_id))).toEqual(new Set([link.body.id]));
    expect(byLink.map((entry) => entry.action).sort()).toEqual(
      ['sso.connection_created', 'sso.domain_added', 'sso.domain_verified', 'scim.directory_created', 'sso_setup.link_used'].sort(),
    );
    const listed = await context.request({ method: 'GET', url: `/api/v1/teams/${teamId}/sso-setup-links`, headers: project.headers.admin });
    expect(listed.body.items).toEqual([expect.objectContaining({ id: link.body.id, status: 'used' })]);
    expect(listed.text).not.toContain(link.body.token);
    expect((await auditEntries('&action=sso_setup.link_created')).length).toBeGreaterThan(0);
  });

  it('refuses a used, an expired, a revoked and an unknown link, each with its own error', async () => {
    const teamId = await newTeam('Hooli');
    const { link, sessionToken } = await openSession(teamId);
    const again = await exchange(link.token);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'SSO_SETUP_LINK_ALREADY_USED', details: { setup_link_id: link.id } });

    const late = await createLink(teamId, { expires_in_minutes: 5 });
    await context.database.db
      .updateTable('sso_setup_link')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', late.body.id)
      .execute();
    const expired = await exchange(late.body.token);
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ code: 'SSO_SETUP_LINK_EXPIRED', details: { setup_link_id: late.body.id } });

    const unknown = await exchange('ssol_not-a-link');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('SSO_SETUP_LINK_NOT_FOUND');

    // Revoking the used link ends its session at once; a revoked unused link cannot be opened.
    const revoke = (id: string) =>
      context.request({
        method: 'DELETE',
        url: `/api/v1/teams/${teamId}/sso-setup-links/${id}`,
        headers: project.headers.admin,
        payload: {},
      });
    expect((await asAdmin(sessionToken, 'GET', '')).status).toBe(200);
    expect((await revoke(link.id)).status).toBe(200);
    const ended = await asAdmin(sessionToken, 'GET', '');
    expect(ended.status).toBe(401);
    expect(ended.body).toMatchObject({ code: 'SSO_SETUP_SESSION_INVALID', details: { reason: 'revoked' } });
    const unused = await createLink(teamId);
    await revoke(unused.body.id);
    const revoked = await exchange(unused.body.token);
    expect(revoked.status).toBe(410);
    expect(revoked.body).toMatchObject({ code: 'SSO_SETUP_LINK_REVOKED', details: { setup_link_id: unused.body.id } });
    const listed = await context.request({
      method: 'GET',
      url: `/api/v1/teams/${teamId}/sso-setup-links`,
      headers: project.headers.server,
    });
    expect(listed.body.items.map((item: { status: string }) => item.status).sort()).toEqual(['expired', 'revoked', 'revoked']);
    expect((await auditEntries(`&action=sso_setup.link_revoked&team_id=${teamId}`)).length).toBe(2);
    const missing = await revoke(crypto.randomUUID());
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('SSO_SETUP_LINK_NOT_FOUND');
  });

  it('ends a session after its hour and refuses a missing or unknown session token', async () => {
    const { link, sessionToken } = await openSession(await newTeam('Pied Piper'));
    await context.database.db
      .updateTable('sso_setup_link')
      .set({ session_expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', link.id)
      .execute();
    expect((await asAdmin(sessionToken, 'GET', '')).body.details).toEqual({ reason: 'expired' });
    expect((await asAdmin(undefined, 'POST', '/domains', { domain: 'x.test' })).body).toMatchObject({
      code: 'SSO_SETUP_SESSION_INVALID',
      details: { reason: 'missing' },
    });
    expect((await asAdmin('ssos_unknown', 'POST', '/scim-directories', {})).body.details).toEqual({ reason: 'unknown' });
    expect((await asAdmin('ssos_unknown', 'POST', '/connections', { protocol: 'oidc', display_name: 'x' })).status).toBe(401);
    expect((await asAdmin('ssos_unknown', 'POST', `/domains/${crypto.randomUUID()}/verify`)).status).toBe(401);
  });

  it('refuses verifying a domain that another team verified', async () => {
    const domainName = `contested-${Date.now()}.test`;
    const owner = await context.request({
      method: 'POST',
      url: '/api/v1/sso/domains',
      headers: project.headers.server,
      payload: { team_id: await newTeam('Holder'), domain: domainName },
    });
    dns.publish(owner.body.verification_record_name, owner.body.verification_record_value);
    expect(
      (await context.request({ method: 'POST', url: `/api/v1/sso/domains/${owner.body.id}/verify`, headers: project.headers.server }))
        .status,
    ).toBe(200);
    const { sessionToken } = await openSession(await newTeam('Claimant'));
    const claim = await asAdmin(sessionToken, 'POST', '/domains', { domain: domainName });
    dns.publish(claim.body.verification_record_name, claim.body.verification_record_value);
    const contested = await asAdmin(sessionToken, 'POST', `/domains/${claim.body.id}/verify`);
    expect(contested.status).toBe(409);
    expect(contested.body).toMatchObject({ code: 'TEAM_DOMAIN_ALREADY_VERIFIED', details: { domain: domainName } });
  });

  it('gives exactly one of simultaneous exchanges a session', async () => {
    const link = await createLink(await newTeam('Raviga'));
    const answers = await Promise.all(Array.from({ length: 6 }, () => exchange(link.body.token)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });

  it('answers bad input with catalogued 4xx errors', async () => {
    const { sessionToken } = await openSession(await newTeam('Bachmanity'));
    expect((await exchange('')).body.code).toBe('SCHEMA_ERROR');
    expect((await createLink(await newTeam('Endframe'), { expires_in_minutes: 1 })).body.code).toBe('SCHEMA_ERROR');
    expect((await createLink(crypto.randomUUID())).body.code).toBe('TEAM_NOT_FOUND');
    expect((await asAdmin(sessionToken, 'POST', '/domains', { domain: 'not a domain' })).body.code).toBe('SCHEMA_ERROR');
    expect((await asAdmin(sessionToken, 'POST', '/scim-directories', { display_name: '' })).body.code).toBe('SCHEMA_ERROR');
    expect((await asAdmin(sessionToken, 'POST', '/domains/not-a-uuid/verify')).body.code).toBe('SCHEMA_ERROR');
    const malformed = await asAdmin(sessionToken, 'POST', '/connections', {
      protocol: 'saml',
      display_name: 'Broken',
      saml: { idp_metadata_xml: '<not-metadata/>' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('SSO_CONNECTION_CONFIG_INVALID');
    // The team of a connection is the session's: a `team_id` in the body is not accepted.
    const smuggled = await asAdmin(sessionToken, 'POST', '/connections', {
      protocol: 'saml',
      display_name: 'Elsewhere',
      team_id: crypto.randomUUID(),
      saml: { idp_metadata_xml: idp.metadata() },
    });
    expect(smuggled.body.code).toBe('SCHEMA_ERROR');
  });
});
