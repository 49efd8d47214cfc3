import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedDomains } from '@gatehouse/testing/oauth-test-flow';
import { TestSamlIdp } from '@gatehouse/testing/saml-idp';
import { newEmail, ssoFlows } from '@gatehouse/testing/sso-test-helpers';
import { createTestContext, type TestContext, type TestProject } from '@gatehouse/testing/test-context';

/**
 * A just-in-time SSO sign-up is a sign-up like the others: the project's sign-up rules judge it, as
 * `authMethod` `oauth` with `oauthProvider` `sso:<protocol>` (docs/guide/sign-up-protection.md).
 */
let context: TestContext;
let project: TestProject;
let idp: TestSamlIdp;
let connection: { id: string; saml: { sp_entity_id: string } };
const flows = ssoFlows(() => context);
const errorPage = 'https://app.example.com/handler/error';

const rule = (type: string, condition: string, extra: Record<string, unknown> = {}) => ({
  enabled: true,
  displayName: `SSO ${type}`,
  priority: 0,
  condition,
  action: { type, ...extra },
});

/** A project with `signUpRules` (and more config) and a SAML connection of one of its teams to the test IdP. */
async function projectWithConnection(config: Record<string, unknown>) {
  const created = await context.createProject({ 'domains.trustedDomains': trustedDomains, 'domains.allowLocalhost': true, ...config });
  const teamId = (await context.services.teams.create(created.project, { display_name: 'Ruled' })).id;
  const answer = await context.request({
    method: 'POST',
    url: '/api/v1/sso/connections',
    headers: created.headers.server,
    payload: { team_id: teamId, protocol: 'saml', display_name: 'Ruled SAML', saml: { idp_metadata_xml: idp.metadata() } },
  });
  expect(answer.status, answer.text).toBe(201);
  return { project: created, connection: answer.body as typeof connection };
}

beforeAll(async () => {
  context = await createTestContext();
  idp = await TestSamlIdp.create();
  ({ project, connection } = await projectWithConnection({
    'auth.signUpRules': {
      rejected: rule('reject', 'oauthProvider == "sso:saml" && email.startsWith("refused-")', { message: 'Ask IT first' }),
      restricted: rule('restrict', 'authMethod == "oauth" && oauthProvider == "sso:saml" && email.startsWith("held-")'),
      watched: rule('log', 'oauthProvider == "sso:saml" && email.startsWith("watched-")', { serverMetadata: { cohort: 'sso' } }),
    },
  }));
  // A context, a project, an IdP key pair and a connection: past the default 60 s hook timeout on a loaded machine.
}, 180_000);
afterAll(async () => {
  await context?.close();
});

/** An SSO sign-in of `email` through the SAML IdP (of the main project's connection unless told): the ACS answer. */
async function signInThroughIdp(email: string, target = { project, connection }) {
  const started = await flows.authorize(target.project, target.connection.id, { error_redirect_uri: errorPage });
  const request = TestSamlIdp.readRequest(started.location);
  const response = await flows.postAcs(
    target.connection.id,
    await idp.response({ acsUrl: request.acsUrl, audience: target.connection.saml.sp_entity_id, email, inResponseTo: request.id }),
  );
  expect(response.status, response.text).toBe(303);
  return { location: String(response.headers.location), verifier: started.verifier };
}

const usersWith = async (email: string, inProject = project) =>
  (
    await context.request({
      url: `/api/v1/users?include_restricted=true&query=${encodeURIComponent(email)}`,
      headers: inProject.headers.server,
    })
  ).body.items;

describe('sign-up rules on a JIT SSO sign-up', () => {
  it('reject: refused with SIGN_UP_REJECTED and the rule message at the error page, no user', async () => {
    const email = newEmail('refused');
    const { location } = await signInThroughIdp(email);
    const refused = new URL(location);
    expect(refused.origin + refused.pathname).toBe(errorPage);
    expect(refused.searchParams.get('errorCode')).toBe('SIGN_UP_REJECTED');
    expect(JSON.parse(refused.searchParams.get('details') ?? '{}')).toEqual({ message: 'Ask IT first' });
    expect(await usersWith(email)).toEqual([]);
  });

  it('restrict: the new user is restricted by admin; a miss signs up unrestricted', async () => {
    const held = newEmail('held');
    const first = await signInThroughIdp(held);
    expect((await flows.exchange(project, first.location, first.verifier)).is_new_user).toBe(true);
    expect(await usersWith(held)).toEqual([
      expect.objectContaining({
        restricted_by_admin: true,
        restricted_by_admin_private_details: 'Restricted by sign-up rule: restricted (SSO restrict)',
      }),
    ]);

    const free = newEmail('free');
    const second = await signInThroughIdp(free);
    expect((await flows.exchange(project, second.location, second.verifier)).is_new_user).toBe(true);
    expect(await usersWith(free)).toEqual([expect.objectContaining({ restricted_by_admin: false })]);
  });

  it('log: the sign-up goes through unchanged with the rule metadata, and the match is counted', async () => {
    const watched = newEmail('watched');
    const signedIn = await signInThroughIdp(watched);
    expect((await flows.exchange(project, signedIn.location, signedIn.verifier)).is_new_user).toBe(true);
    expect(await usersWith(watched)).toEqual([expect.objectContaining({ restricted_by_admin: false, server_metadata: { cohort: 'sso' } })]);
    const stats = await context.request({ url: '/api/v1/internal/sign-up-rules-stats', headers: project.headers.admin });
    expect(stats.status, stats.text).toBe(200);
    expect(stats.body.triggers_by_action.log).toBe(1);
  });

  it('allow: a hit passes a default of reject, a miss gets the default rejection at the error page', async () => {
    const strict = await projectWithConnection({
      'auth.signUpRules': { vip: rule('allow', 'oauthProvider == "sso:saml" && email.startsWith("vip-")') },
      'auth.signUpRulesDefaultAction': 'reject',
    });
    const vip = newEmail('vip');
    const allowed = await signInThroughIdp(vip, strict);
    expect((await flows.exchange(strict.project, allowed.location, allowed.verifier)).is_new_user).toBe(true);
    expect(await usersWith(vip, strict.project)).toHaveLength(1);

    const stranger = newEmail('stranger');
    const refused = new URL((await signInThroughIdp(stranger, strict)).location);
    expect(refused.searchParams.get('errorCode')).toBe('SIGN_UP_REJECTED');
    expect(await usersWith(stranger, strict.project)).toEqual([]);
  });
});
