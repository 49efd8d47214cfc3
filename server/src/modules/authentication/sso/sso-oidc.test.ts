import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { trustedDomains } from '@gatehouse/testing/oauth-test-flow';
import { startOidcIdp } from '@gatehouse/testing/oidc-idp';
import { createTestContext, type TestContext, type TestProject } from '@gatehouse/testing/test-context';
import { newEmail, ssoFlows } from '@gatehouse/testing/sso-test-helpers';

/**
 * OpenID Connect sign-in through a team's connection, against a local oidc-provider: discovery,
 * code + PKCE + nonce, the ID token checked by openid-client, JIT into the team; a replayed or
 * forged callback is refused; an issuer the outbound guard refuses cannot be used.
 */
let context: TestContext;
let project: TestProject;
let idp: Awaited<ReturnType<typeof startOidcIdp>>;
let teamId: string;
let connection: { id: string; oidc: { redirect_uri: string } };
const flows = ssoFlows(() => context);

beforeAll(async () => {
  idp = await startOidcIdp();
  context = await createTestContext();
  project = await context.createProject({ 'domains.trustedDomains': trustedDomains, 'domains.allowLocalhost': true });
  teamId = (await context.services.teams.create(project.project, { display_name: 'Oidc Co' })).id;
  const created = await context.request({
    method: 'POST',
    url: '/api/v1/sso/connections',
    headers: project.headers.server,
    payload: {
      team_id: teamId,
      protocol: 'oidc',
      display_name: 'Oidc Co',
      oidc: { issuer: idp.issuer, client_id: 'gatehouse', client_secret: 'oidc-client-secret' },
    },
  });
  expect(created.status, created.text).toBe(201);
  connection = created.body;
  idp.configure({ clientId: 'gatehouse', clientSecret: 'oidc-client-secret', redirectUri: connection.oidc.redirect_uri });
});
afterAll(async () => {
  await context?.close();
  await idp?.close();
});

const callback = (location: string) => {
  const url = new URL(location);
  return context.request({ method: 'GET', url: `${url.pathname}${url.search}` });
};

describe('OpenID Connect sign-in', () => {
  it('signs a new person in through the provider and makes them a member of the team', async () => {
    const email = newEmail('oscar', 'oidc.test');
    const { response, verifier, location } = await flows.authorize(project, connection.id, { login_hint: email });
    expect(response.status, response.text).toBe(307);
    const authorization = new URL(location);
    expect(authorization.origin).toBe(idp.issuer);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('nonce')).toBeTruthy();
    const back = await idp.signIn(location, email);
    expect(back.startsWith(connection.oidc.redirect_uri)).toBe(true);
    const answer = await callback(back);
    expect(answer.status, answer.text).toBe(303);
    const tokens = await flows.exchange(project, String(answer.headers.location), verifier);
    expect(tokens.is_new_user).toBe(true);
    const me = await context.request({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: { ...project.headers.client, 'x-stack-access-token': tokens.access_token },
    });
    expect(me.body.primary_email).toBe(email);
    expect(me.body.display_name).toBe(`OIDC ${email.split('@')[0]}`);
    expect(await context.services.teams.isMember(project.project.id, teamId, me.body.id)).toBe(true);

    // The same callback again: its flow is finished.
    expectError(await callback(back), 400, 'SSO_RESPONSE_INVALID', { protocol: 'oidc', reason: 'oidc_error' });
  });

  it('refuses a callback with a forged code', async () => {
    const { location } = await flows.authorize(project, connection.id);
    const state = new URL(location).searchParams.get('state') ?? '';
    const forged = `${connection.oidc.redirect_uri}?code=forged&state=${state}&iss=${encodeURIComponent(idp.issuer)}`;
    expectError(await callback(forged), 400, 'SSO_RESPONSE_INVALID', { protocol: 'oidc', reason: 'oidc_error' });
    expectError(await callback(`${connection.oidc.redirect_uri}?state=${'x'.repeat(600)}`), 400, 'SCHEMA_ERROR');
    expectError(
      await callback(`${connection.oidc.redirect_uri.replace(connection.id, '00000000-0000-4000-8000-000000000000')}?state=x`),
      404,
      'SSO_CONNECTION_NOT_FOUND',
    );
  });

  it('cannot use an issuer the outbound guard refuses (loopback without allow localhost, private ranges)', async () => {
    const strict = await context.createProject({ 'domains.trustedDomains': trustedDomains });
    const team = await context.services.teams.create(strict.project, { display_name: 'Strict' });
    for (const issuer of [idp.issuer, 'http://10.0.0.1/', 'http://169.254.169.254/']) {
      const created = await context.request({
        method: 'POST',
        url: '/api/v1/sso/connections',
        headers: strict.headers.server,
        payload: { team_id: team.id, protocol: 'oidc', display_name: 'Guarded', oidc: { issuer, client_id: 'c', client_secret: 's' } },
      });
      expect(created.status).toBe(201);
      const { response } = await flows.authorize(strict, created.body.id);
      expectError(response, 400, 'SSO_CONNECTION_CONFIG_INVALID', { reason: 'the issuer is not an allowed address (outbound guard)' });
    }
  });
});
