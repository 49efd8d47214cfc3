import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { authorizeQuery, innerCookieOf, oauthFlows, pkce, trustedDomains } from '@gatehouse/testing/oauth-test-flow';
import { type IdTokenTampering, startOidcIdp } from '@gatehouse/testing/oidc-idp';
import { createTestContext, type TestContext, type TestProject, testPublicUrl } from '@gatehouse/testing/test-context';

/**
 * A project's own ("bring your own") OpenID Connect provider, `auth.oauth.providers.oidc-<slug>` with
 * `type: oidc`, against a local oidc-provider: checked when saved (key, issuer reachable and allowed),
 * discovery + code + PKCE + nonce at sign-in, the ID token's signature, issuer and nonce checked, and
 * a provider of one project useless to another.
 */
let context: TestContext;
let project: TestProject;
let idp: Awaited<ReturnType<typeof startOidcIdp>>;
const configId = 'oidc-acme';
const env = {
  get context() {
    return context;
  },
  get project() {
    return project;
  },
};
const flows = oauthFlows(env as never);

const provider = (issuer: string, extra: Record<string, unknown> = {}) => ({
  type: 'oidc',
  issuer,
  displayName: 'Acme Workforce',
  clientId: 'byo-client',
  clientSecret: 'byo-secret',
  allowSignIn: true,
  ...extra,
});

const saveOverride = (target: TestProject, override: Record<string, unknown>, method: 'PATCH' | 'PUT' = 'PATCH') =>
  context.request({
    method,
    url: '/api/v1/internal/config/override/project',
    headers: target.headers.admin,
    payload: method === 'PATCH' ? { config_override_string: JSON.stringify(override) } : { config_string: JSON.stringify(override) },
  });

beforeAll(async () => {
  idp = await startOidcIdp();
  idp.configure({
    clientId: 'byo-client',
    clientSecret: 'byo-secret',
    redirectUri: `${testPublicUrl}/api/v1/auth/oauth/callback/${configId}`,
  });
  context = await createTestContext();
  project = await context.createProject({
    'domains.trustedDomains': trustedDomains,
    'domains.allowLocalhost': true,
    'auth.allowSignUp': true,
  });
  const saved = await saveOverride(project, { [`auth.oauth.providers.${configId}`]: provider(idp.issuer) });
  expect(saved.status, saved.text).toBe(200);
}, 60_000);
afterAll(async () => {
  await context?.close();
  await idp?.close();
});

/** Authorize at our server, then through the provider's login and consent pages: the callback URL and the flow's cookie. */
async function toCallback(target: TestProject, email: string) {
  const { verifier, challenge } = pkce();
  const response = await flows.authorize(configId, authorizeQuery(target, challenge));
  expect(response.status, response.text).toBe(307);
  const location = String(response.headers.location);
  const back = new URL(await idp.signIn(location, email));
  return { location, back, cookie: innerCookieOf(response), verifier };
}

const userByEmail = async (target: TestProject, email: string) => {
  const users = await context.request({ url: `/api/v1/users?query=${encodeURIComponent(email)}`, headers: target.headers.server });
  return (users.body.items as Array<{ primary_email: string }>).filter((user) => user.primary_email === email);
};

describe("a project's own OpenID provider", () => {
  it('shows as its own button, signs a new person in through discovery, code + PKCE + nonce', async () => {
    const current = await context.request({ url: '/api/v1/projects/current', headers: project.headers.client });
    expect(current.body.config.oidc_providers).toEqual([{ id: configId, display_name: 'Acme Workforce' }]);
    // Stack's list keeps its 12 types only.
    expect(current.body.config.enabled_oauth_providers).toEqual([]);

    const email = `ada-${randomUUID().slice(0, 8)}@acme.test`;
    const { location, back, cookie, verifier } = await toCallback(project, email);
    const authorization = new URL(location);
    expect(authorization.origin).toBe(idp.issuer);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('nonce')).toBeTruthy();
    expect(authorization.searchParams.get('scope')?.split(' ')).toEqual(['openid', 'email', 'profile']);
    expect(back.pathname).toBe(`/api/v1/auth/oauth/callback/${configId}`);
    const answer = await flows.callback(back, cookie);
    expect(answer.status, answer.text).toBe(303);
    const code = new URL(String(answer.headers.location)).searchParams.get('code') as string;
    const tokens = await flows.exchange(project, code, verifier);
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.body.is_new_user).toBe(true);
    const me = await context.request({
      url: '/api/v1/users/me',
      headers: { ...project.headers.client, 'x-stack-access-token': tokens.body.access_token },
    });
    expect(me.body.primary_email).toBe(email);
    expect(me.body.display_name).toBe(`OIDC ${email.split('@')[0]}`);
    const links = await context.request({ url: `/api/v1/oauth-providers?user_id=${me.body.id}`, headers: project.headers.server });
    expect(links.status, links.text).toBe(200);
    expect(links.body.items).toMatchObject([{ provider_config_id: configId, type: configId, account_id: email }]);
  });

  it.each<IdTokenTampering>(['signature', 'issuer', 'nonce'])(
    'refuses an ID token with a spoiled %s, nobody signed in',
    async (tampering) => {
      const email = `eve-${tampering}-${randomUUID().slice(0, 8)}@acme.test`;
      const { back, cookie } = await toCallback(project, email);
      idp.state.tamperNext = tampering;
      // The form POST spelling of the callback for one of them (both answer the same).
      const answer =
        tampering === 'nonce'
          ? await context.request({
              method: 'POST',
              url: back.pathname,
              headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
              payload: back.searchParams.toString(),
            })
          : await flows.callback(back, cookie);
      expectError(answer, 400, 'OIDC_PROVIDER_RESPONSE_INVALID');
      expect(answer.body.details.provider_config_id).toBe(configId);
      expect(idp.state.tamperNext).toBe(null);
      expect(await userByEmail(project, email)).toEqual([]);
    },
  );

  it('refuses, when saved, a bad key, an issuer that does not answer, and one the outbound guard refuses; nothing saved', async () => {
    const other = await context.createProject({ 'domains.trustedDomains': trustedDomains });
    const badKey = await saveOverride(other, { 'auth.oauth.providers.oidc-Not_A_Slug': provider(idp.issuer) });
    expectError(badKey, 400, 'OIDC_PROVIDER_CONFIG_INVALID');
    expect(badKey.body.details.reason).toContain('the key must be "oidc-"');
    expectError(
      await saveOverride(other, { 'auth.oauth.providers.oidc-x': provider('ftp://idp.test') }),
      400,
      'OIDC_PROVIDER_CONFIG_INVALID',
      {
        provider_config_id: 'oidc-x',
        reason: 'issuer must be an http or https URL',
      },
    );
    // Loopback, without the project allowing localhost; then a private address.
    for (const issuer of [idp.issuer, 'http://10.0.0.1/', 'http://169.254.169.254/']) {
      expectError(
        await saveOverride(other, { 'auth.oauth.providers.oidc-x': provider(issuer) }, 'PUT'),
        400,
        'OIDC_PROVIDER_CONFIG_INVALID',
        {
          provider_config_id: 'oidc-x',
          reason: 'the issuer is not an allowed address (outbound guard)',
        },
      );
    }
    // Allowed, but nobody answers there.
    const gone = await startOidcIdp();
    await gone.close();
    const silent = await saveOverride(other, { 'domains.allowLocalhost': true, 'auth.oauth.providers.oidc-x': provider(gone.issuer) });
    expectError(silent, 400, 'OIDC_PROVIDER_CONFIG_INVALID');
    expect(silent.body.details.reason).toContain("the issuer's discovery document could not be read");
    const current = await context.request({ url: '/api/v1/projects/current', headers: other.headers.client });
    expect(current.body.config.oidc_providers).toBeUndefined();
  });

  it('answers OIDC_PROVIDER_CONFIG_INVALID at authorize when the issuer stopped answering', async () => {
    const later = await startOidcIdp();
    later.configure({
      clientId: 'byo-client',
      clientSecret: 'byo-secret',
      redirectUri: `${testPublicUrl}/api/v1/auth/oauth/callback/${configId}`,
    });
    const target = await context.createProject({ 'domains.trustedDomains': trustedDomains, 'domains.allowLocalhost': true });
    expect((await saveOverride(target, { [`auth.oauth.providers.${configId}`]: provider(later.issuer) })).status).toBe(200);
    await later.close();
    const response = await flows.authorize(configId, authorizeQuery(target, pkce().challenge));
    expectError(response, 400, 'OIDC_PROVIDER_CONFIG_INVALID');
    expect(response.body.details?.reason).toContain("the issuer's discovery document could not be read");
  });

  it("is the project's own: another project cannot start or finish a sign-in with it", async () => {
    const stranger = await context.createProject({ 'domains.trustedDomains': trustedDomains, 'domains.allowLocalhost': true });
    expectError(
      await flows.authorize(configId, authorizeQuery(stranger, pkce().challenge)),
      400,
      'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED',
    );
    // A flow of the first project, its code exchanged with the stranger's keys: refused, and nobody created there.
    const email = `mallory-${randomUUID().slice(0, 8)}@acme.test`;
    const { back, cookie, verifier } = await toCallback(project, email);
    const answer = await flows.callback(back, cookie);
    expect(answer.status, answer.text).toBe(303);
    const code = new URL(String(answer.headers.location)).searchParams.get('code') as string;
    expectError(await flows.exchange(stranger, code, verifier), 400, 'INVALID_AUTHORIZATION_CODE');
    expect(await userByEmail(stranger, email)).toEqual([]);
    expect(await userByEmail(project, email)).toHaveLength(1);
  });

  it("keeps the project's own providers when the dashboard saves the legacy provider list", async () => {
    const updated = await context.request({
      method: 'PATCH',
      url: '/api/v1/internal/projects/current',
      headers: project.headers.admin,
      payload: { config: { oauth_providers: [{ id: 'github', type: 'standard', client_id: 'gh', client_secret: 'gh-secret' }] } },
    });
    expect(updated.status, updated.text).toBe(200);
    const current = await context.request({ url: '/api/v1/projects/current', headers: project.headers.client });
    expect(current.body.config.oidc_providers).toEqual([{ id: configId, display_name: 'Acme Workforce' }]);
    expect(current.body.config.enabled_oauth_providers).toEqual([{ id: 'github' }]);
  });
});
