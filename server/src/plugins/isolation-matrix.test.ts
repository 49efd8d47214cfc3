import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../generated/route-table.ts';
import type { RouteDefinition } from '../routing/route-definition.ts';
import type { TestProject } from '@gatehouse/testing/test-context';
import { withTestContext } from '@gatehouse/testing/test-context';
import { cookieJar, publicHost } from '@gatehouse/testing/oauth-provider-testing';

/**
 * The cross-project isolation matrix (issue #12): project A owns a user, session, team, membership,
 * invitation, contact channel, user and team API keys and permission definitions. Every operation
 * that names a resource by id (path, query or body) is called with A's ids and the credentials of
 * project B (each access type the operation allows), and with A's user token under B's headers.
 * Each attempt is denied (a 4xx), or answers that it found nothing (a list filtered by A's id); A is intact afterwards.
 */
const env = withTestContext();
const config = {
  'apiKeys.enabled.user': true,
  'apiKeys.enabled.team': true,
  'auth.password.allowSignIn': true,
  'domains.trustedDomains': { app: { baseUrl: 'https://app.example.com', handlerPath: '/handler' } },
  // Webhook endpoints on localhost (no DNS); nothing is sent to them.
  'domains.allowLocalhost': true,
  // Email templates need the project's own mail server; nothing listens on port 9, so nothing is delivered.
  'emails.server': {
    isShared: false,
    host: '127.0.0.1',
    port: 9,
    username: 'victim',
    password: 'secret',
    senderName: 'Victim',
    senderEmail: 'auth@victim.test',
  },
};

type Resources = Record<string, string>;
let victim: TestProject;
let attacker: TestProject;
let victimToken: string;
let attackerToken: string;
let ids: Resources;

const call = async (method: string, url: string, headers: Record<string, string>, payload?: object) => {
  const response = await env.context.request({ method: method as 'GET', url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  expect(response.status, `${method} ${url}: ${response.text}`).toBeLessThan(300);
  return response.body;
};

beforeAll(async () => {
  victim = await env.context.createProject(config);
  attacker = await env.context.createProject(config);
  const { users, signIn } = env.context.services;
  const user = await users.create(
    victim.project,
    { primary_email: `victim-${randomUUID()}@example.com`, password: 'victim password 1' },
    'server',
  );
  victimToken = (await signIn.signIn(victim.project, user)).access_token;
  const other = await users.create(attacker.project, { primary_email: `attacker-${randomUUID()}@example.com` }, 'server');
  attackerToken = (await signIn.signIn(attacker.project, other)).access_token;
  const server = victim.headers.server;
  const team = await call('POST', '/teams', server, { display_name: 'Victim team', creator_user_id: user.id });
  const sessions = await call('GET', `/auth/sessions?user_id=${user.id}`, server);
  const channels = await call('GET', `/contact-channels?user_id=${user.id}`, server);
  const userKey = await call('POST', '/user-api-keys', server, { user_id: user.id, description: 'victim key' });
  const teamKey = await call('POST', '/team-api-keys', server, { team_id: team.id, description: 'victim team key' });
  await call('POST', '/team-permission-definitions', victim.headers.admin, { id: 'victim_team_permission' });
  await call('POST', '/project-permission-definitions', victim.headers.admin, { id: 'victim_project_permission' });
  await call('POST', '/team-invitations/send-code', server, {
    team_id: team.id,
    email: 'invitee@example.com',
    callback_url: 'https://app.example.com/handler/team-invitation',
  });
  const invitations = await call('GET', `/team-invitations?team_id=${team.id}`, server);
  const admin = victim.headers.admin;
  const theme = await call('POST', '/internal/email-themes', admin, { display_name: 'Victim theme' });
  const template = await call('POST', '/internal/email-templates', admin, { display_name: 'Victim template' });
  const draft = await call('POST', '/internal/email-drafts', admin, { display_name: 'Victim draft' });
  const endpoint = await call('POST', '/internal/webhooks/endpoints', admin, { url: 'http://localhost:9/victim' });
  const connection = await call('POST', '/sso/connections', server, {
    team_id: team.id,
    protocol: 'oidc',
    display_name: 'Victim IdP',
    oidc: { issuer: 'https://idp.victim.test', client_id: 'victim', client_secret: 'victim secret' },
  });
  const domain = await call('POST', '/sso/domains', server, { team_id: team.id, domain: 'victim.test' });
  const directory = await call('POST', `/teams/${team.id}/scim-directories`, server, { display_name: 'Victim directory' });
  const setupLink = await call('POST', `/teams/${team.id}/sso-setup-links`, server, {});
  // An OAuth application of project A and an authorization request of it waiting for consent.
  const oauthApplication = await env.context.request({
    method: 'POST',
    url: '/api/v1/internal/oauth-applications',
    headers: admin,
    payload: { name: 'Victim app', type: 'public', redirect_uris: ['https://app.example.com/callback'] },
  });
  const authorizationUrl = (challenge: string) =>
    `/api/v1/projects/${victim.project.id}/oauth/auth?${new URLSearchParams({
      client_id: oauthApplication.body.client_id,
      response_type: 'code',
      redirect_uri: 'https://app.example.com/callback',
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    })}`;
  const authorization = await env.context.app.inject({
    method: 'GET',
    url: authorizationUrl('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'),
  });
  const interactionId = new URL(String(authorization.headers.location)).searchParams.get('interaction') as string;
  // The victim user also connected the application (a remembered consent: "connected apps").
  // The answer takes effect when the browser that started the request (its provider cookie) brings it back.
  const browser = cookieJar();
  const connecting = await env.context.app.inject({
    method: 'GET',
    url: authorizationUrl('x8-Pv4S0YPjdY9aSJJ3qAfGq4IxO6b-JFo4c1N3XBtE'),
    headers: publicHost,
  });
  browser.storeSetCookie(connecting.headers['set-cookie']);
  const connectingId = new URL(String(connecting.headers.location)).searchParams.get('interaction') as string;
  const answered = await call(
    'POST',
    `/oauth-provider/interactions/${connectingId}`,
    { ...victim.headers.client, 'x-stack-access-token': victimToken },
    { allow: true },
  );
  const back = new URL(answered.redirect_to);
  const returned = await env.context.app.inject({
    method: 'GET',
    url: back.pathname + back.search,
    headers: { ...publicHost, cookie: browser.header() },
  });
  expect(returned.statusCode, returned.body).toBe(303);
  ids = {
    user_id: user.id,
    team_id: team.id,
    session_id: sessions.items[0].id,
    contact_channel_id: channels.items[0].id,
    user_api_key_id: userKey.id,
    team_api_key_id: teamKey.id,
    key_set_id: victim.keySet.id,
    invitation_id: invitations.items[0].id,
    theme_id: theme.id,
    template_id: template.id,
    draft_id: draft.id,
    endpoint_id: endpoint.id,
    connection_id: connection.id,
    domain_id: domain.id,
    directory_id: directory.id,
    setup_link_id: setupLink.id,
    client_id: oauthApplication.body.client_id,
    interaction_id: interactionId,
    team_permission_id: 'victim_team_permission',
    project_permission_id: 'victim_project_permission',
  };
});

/** The routes whose `client_id` is one of the project's OAuth applications (its management, and connected apps). */
const namesOAuthApplication = (route: RouteDefinition) =>
  route.url.includes('/oauth-applications/') || route.url.includes('/oauth-connections/');

/** The victim's resource a field of this name addresses, on this route. */
function victimIdFor(route: RouteDefinition, field: string): string | undefined {
  if (field === 'api_key_id')
    return route.url.includes('/internal/')
      ? ids.key_set_id
      : route.url.includes('team-api-keys')
        ? ids.team_api_key_id
        : ids.user_api_key_id;
  if (field === 'permission_id') return route.url.includes('team-permission') ? ids.team_permission_id : ids.project_permission_id;
  if (field === 'creator_user_id' || field === 'customer_id') return ids.user_id;
  // `client_id` elsewhere is an upstream provider's or a CLI's, not a resource of the project.
  if (field === 'client_id') return namesOAuthApplication(route) ? ids.client_id : undefined;
  if (field === 'customer_type') return 'user';
  return ids[field];
}

/** The fields that name one of A's resources (victimIdFor). */
const addressingFields = new Set([
  'user_id',
  'creator_user_id',
  'team_id',
  'session_id',
  'contact_channel_id',
  'api_key_id',
  'invitation_id',
  'permission_id',
  'theme_id',
  'template_id',
  'draft_id',
  'endpoint_id',
  'directory_id',
  'setup_link_id',
  'customer_id',
  'connection_id',
  'domain_id',
  'interaction_id',
]);
type Schema = { properties?: Record<string, unknown>; required?: string[] };
const routes = (routeTable as readonly RouteDefinition[]).filter((route) => route.auth !== 'none');
const fieldsOf = (schema: unknown) => Object.keys((schema as Schema | undefined)?.properties ?? {});
const addressesById = (route: RouteDefinition) =>
  [...fieldsOf(route.schema.params), ...fieldsOf(route.schema.querystring), ...fieldsOf(route.schema.body)].some(
    (field) => addressingFields.has(field) || (field === 'client_id' && namesOAuthApplication(route)),
  );

function requestFor(route: RouteDefinition) {
  const url = route.url.replace(/:([A-Za-z_]+)/g, (_match, name: string) => victimIdFor(route, name) ?? randomUUID());
  const query = fieldsOf(route.schema.querystring)
    .filter((field) => field.endsWith('_id') && victimIdFor(route, field))
    .map((field) => `${field}=${victimIdFor(route, field)}`)
    .join('&');
  const bodyFields = fieldsOf(route.schema.body).filter((field) => field.endsWith('_id') && victimIdFor(route, field));
  const body = route.schema.body ? Object.fromEntries(bodyFields.map((field) => [field, victimIdFor(route, field)])) : undefined;
  return { url: query ? `${url}?${query}` : url, body };
}

let attempts = 0;
let denied = 0;
let emptyAnswers = 0;
/** Operations that answer 2xx for what they cannot find, saying so in the body. */
const answersAboutNothing: Record<string, (body: Record<string, unknown>) => boolean> = {
  // Billing reads never fail: another project's customer has no billing here.
  getCustomerBilling: (body) => body.has_customer === false && body.default_payment_method === null,
  // The test send reports the unknown endpoint.
  sendTestWebhook: (body) => body.success === false && String(body.error_message).includes('No webhook endpoint'),
  // The audit log export filtered by another project's team is an empty file.
  getAuditLogExport: (body) => (body as unknown) === '',
  // The transactions list filtered by another project's customer is empty.
  listPaymentTransactions: (body) => Array.isArray(body.transactions) && body.transactions.length === 0,
};

describe('another project cannot reach project A by id', () => {
  const targeted = routes.filter(addressesById);

  it('covers every operation that names a user, team, session, channel, key, invitation, permission, email theme, template or draft, webhook endpoint, payments customer, SSO connection, team domain, SCIM directory, OAuth application or authorization request', () => {
    expect(targeted.length).toBeGreaterThan(60);
  });

  it.each(targeted.map((route) => ({ route, name: `${route.method} ${route.url}` })))('$name', async ({ route }) => {
    const { url, body } = requestFor(route);
    const victimIds = Object.values(ids).filter((id) => !id.startsWith('victim_'));
    const attempt = async (headers: Record<string, string>, label: string) => {
      attempts += 1;
      const response = await env.context.request({ method: route.method, url, headers, ...(body ? { payload: body } : {}) });
      expect(response.status, `${label}: ${response.text.slice(0, 300)}`).toBeLessThan(500);
      if (response.status >= 400) {
        denied += 1;
        return;
      }
      // Only a list filtered by another project's id may answer, and then with nothing in it, or an
      // operation whose answer says it found nothing.
      const foundNothing = answersAboutNothing[route.operationId];
      if (foundNothing) expect(foundNothing(response.body), `${label}: ${response.text.slice(0, 300)}`).toBe(true);
      else {
        expect(route.method, `${label} was allowed: ${response.text.slice(0, 300)}`).toBe('GET');
        expect(response.body.items, `${label}: ${response.text.slice(0, 300)}`).toEqual([]);
        for (const id of victimIds) expect(response.text, `${label} answered with project A's data`).not.toContain(id);
      }
      emptyAnswers += 1;
    };
    for (const type of route.accessTypes) {
      await attempt({ ...attacker.headers[type], 'x-stack-access-token': attackerToken }, `project B ${type} key`);
    }
    // Project A's user token under project B's headers.
    const type = route.accessTypes.includes('client') ? 'client' : route.accessTypes[0];
    if (type) {
      attempts += 1;
      const response = await env.context.request({
        method: route.method,
        url,
        headers: { ...attacker.headers[type], 'x-stack-access-token': victimToken },
        ...(body ? { payload: body } : {}),
      });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      denied += 1;
    }
  });

  it('leaves project A intact, and reports the matrix', async () => {
    const server = victim.headers.server;
    await call('GET', `/users/${ids.user_id}`, server);
    await call('GET', `/teams/${ids.team_id}`, server);
    await call('GET', `/team-member-profiles/${ids.team_id}/${ids.user_id}`, server);
    await call('GET', `/user-api-keys/${ids.user_api_key_id}?user_id=${ids.user_id}`, server);
    await call('GET', `/team-api-keys/${ids.team_api_key_id}?team_id=${ids.team_id}`, server);
    await call('GET', `/contact-channels/${ids.user_id}/${ids.contact_channel_id}`, server);
    const sessions = await call('GET', `/auth/sessions?user_id=${ids.user_id}`, server);
    expect(sessions.items.map((session: { id: string }) => session.id)).toContain(ids.session_id);
    const connections = await call('GET', '/users/me/oauth-connections', { ...victim.headers.client, 'x-stack-access-token': victimToken });
    expect(connections.items.map((item: { client_id: string }) => item.client_id)).toEqual([ids.client_id]);
    const invitations = await call('GET', `/team-invitations?team_id=${ids.team_id}`, server);
    expect(invitations.items).toHaveLength(1);
    await call('GET', `/internal/email-themes/${ids.theme_id}`, victim.headers.admin);
    await call('GET', `/internal/email-drafts/${ids.draft_id}`, victim.headers.admin);
    await call('GET', `/internal/webhooks/endpoints/${ids.endpoint_id}`, victim.headers.admin);
    await call('GET', `/sso/connections/${ids.connection_id}`, server);
    const domains = await call('GET', `/sso/domains?team_id=${ids.team_id}`, server);
    expect(domains.items.map((item: { id: string }) => item.id)).toEqual([ids.domain_id]);
    const directories = await call('GET', `/teams/${ids.team_id}/scim-directories`, server);
    expect(directories.items.map((item: { id: string }) => item.id)).toEqual([ids.directory_id]);
    // The audit log of project A is A's alone: B's admin key reads nothing of it (a list filtered by A's team answers empty).
    const audit = await call('GET', `/audit-log?team_id=${ids.team_id}`, victim.headers.admin);
    expect(audit.items.length).toBeGreaterThan(0);
    const definitions = await call('GET', '/team-permission-definitions', victim.headers.admin);
    expect(definitions.items.map((item: { id: string }) => item.id)).toContain('victim_team_permission');
    console.log(
      `isolation matrix: ${attempts} cross-project attempts, ${denied} denied, ${emptyAnswers} answered empty (filtered lists, a billing read, a test send), none with project A's data`,
    );
  });
});
