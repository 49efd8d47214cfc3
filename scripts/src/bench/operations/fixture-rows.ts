import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { signUnsubscribeCode } from '../../../../server/src/modules/messaging/email/unsubscribe-code.ts';
import { TestSamlIdp } from '@gatehouse/testing/saml-idp';
import type { Fixture } from './operation-plan.ts';

type Context = {
  app: FastifyInstance;
  projectId: string;
  keys: Record<string, string>;
  accessToken: string;
  userId: string;
  teamId: string;
  /** A user who owns no product yet (the signed-in user owns the plan): the purchase code's customer. */
  purchaserId: string;
  /** The server's secret for unsubscribe codes (services.unsubscribeSecret). */
  unsubscribeSecret: Buffer;
};

/** Where the bench's app says it lives (a trusted domain of the bench project: `domains.allowLocalhost`). */
const appCallback = 'http://localhost:3000/handler/oauth-callback';
const marketingCategoryId = '4f6f8873-3d04-46bd-8bef-18338b1a1b4c';

/**
 * The rows the remaining GET operations read, made through the API as a user or an owner would:
 * a linked OAuth account, a SCIM directory with a user and a group, a SAML and an OIDC SSO
 * connection, an OAuth application with a pending consent interaction, a purchase code, a saved AI
 * chat thread, an unsubscribe code. Values are named by the spec's parameter names; where two
 * operations use one name for different things (`provider_id`, `resource_id`, `code`,
 * `connection_id`) the value is keyed `<operationId>:<name>` (operation-plan.ts reads that first).
 */
export async function createFixtureRows(context: Context): Promise<Fixture> {
  const { app, projectId, keys } = context;
  const headers = {
    client: {
      'x-stack-access-type': 'client',
      'x-stack-project-id': projectId,
      'x-stack-publishable-client-key': keys.publishable_client_key as string,
      'x-stack-access-token': context.accessToken,
    },
    server: {
      'x-stack-access-type': 'server',
      'x-stack-project-id': projectId,
      'x-stack-secret-server-key': keys.secret_server_key as string,
    },
    admin: {
      'x-stack-access-type': 'admin',
      'x-stack-project-id': projectId,
      'x-stack-super-secret-admin-key': keys.super_secret_admin_key as string,
    },
  };
  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, requestHeaders: Record<string, string>, payload?: object) => {
    const response = await app.inject({ method, url: `/api/v1${url}`, headers: requestHeaders, ...(payload ? { payload } : {}) });
    if (response.statusCode >= 400) throw new Error(`bench fixture: ${method} ${url} answered ${response.statusCode} ${response.body}`);
    return response;
  };
  const json = async <T>(method: 'POST' | 'PATCH', url: string, requestHeaders: Record<string, string>, payload: object) =>
    (await call(method, url, requestHeaders, payload)).json() as T;

  const oauthAccount = await json<{ id: string }>('POST', '/oauth-providers', headers.server, {
    user_id: context.userId,
    provider_config_id: 'github',
    account_id: randomUUID(),
    email: null,
    allow_sign_in: true,
    allow_connected_accounts: true,
  });

  const directory = await json<{ id: string; token: string }>('POST', `/teams/${context.teamId}/scim-directories`, headers.server, {
    display_name: 'Bench directory',
  });
  const scimHeaders = { authorization: `Bearer ${directory.token}`, 'content-type': 'application/scim+json' };
  const scimUser = await json<{ id: string }>('POST', `/scim/v2/${directory.id}/Users`, scimHeaders, {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName: `scim-${randomBytes(4).toString('hex')}@example.com`,
    active: true,
  });
  const scimGroup = await json<{ id: string }>('POST', `/scim/v2/${directory.id}/Groups`, scimHeaders, {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
    displayName: 'Bench group',
  });

  const idp = await TestSamlIdp.create();
  const samlConnection = await json<{ id: string }>('POST', '/sso/connections', headers.server, {
    team_id: context.teamId,
    protocol: 'saml',
    display_name: 'Bench SAML',
    saml: { idp_metadata_xml: idp.metadata() },
  });
  // Not contacted: the OIDC callback is measured without a flow in progress (its refusal is the answer).
  const oidcConnection = await json<{ id: string }>('POST', '/sso/connections', headers.server, {
    team_id: context.teamId,
    protocol: 'oidc',
    display_name: 'Bench OIDC',
    oidc: { issuer: 'https://idp.example.com', client_id: 'gatehouse', client_secret: 'secret' },
  });

  const application = await json<{ client_id: string }>('POST', '/internal/oauth-applications', headers.admin, {
    name: 'Bench app',
    type: 'public',
    redirect_uris: [appCallback],
  });
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const start = await app.inject({
    method: 'GET',
    url: `/api/v1/projects/${projectId}/oauth/auth?${new URLSearchParams({
      client_id: application.client_id,
      response_type: 'code',
      redirect_uri: appCallback,
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    })}`,
  });
  const interactionId = new URL(String(start.headers.location), 'http://bench').searchParams.get('interaction');
  if (!interactionId) throw new Error(`bench fixture: the OAuth authorize answered ${start.statusCode} without an interaction`);

  const purchaseUrl = await json<{ url: string }>('POST', '/payments/purchases/create-purchase-url', headers.server, {
    customer_type: 'user',
    customer_id: context.purchaserId,
    product_id: 'plan',
  });
  const purchaseCode = new URL(purchaseUrl.url).searchParams.get('code') as string;

  const threadId = 'bench-thread';
  await call('PATCH', `/internal/ai-chat/${threadId}`, headers.admin, {
    message: { role: 'user', content: 'How many users signed up today?' },
  });

  return {
    document: 'openid-configuration',
    // The authorize redirects (OAuth provider and SSO) as the client SDK sends them.
    client_id: projectId,
    client_secret: keys.publishable_client_key as string,
    redirect_uri: appCallback,
    scope: 'legacy',
    state: 'bench-state',
    grant_type: 'authorization_code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    response_type: 'code',
    'redirectToOAuthProvider:provider_id': 'github',
    'redirectFromOAuthProvider:provider_id': 'github',
    'getOAuthProvider:provider_id': oauthAccount.id,
    directory_id: directory.id,
    scim_token: directory.token,
    'getScimUser:resource_id': scimUser.id,
    'getScimGroup:resource_id': scimGroup.id,
    connection_id: samlConnection.id,
    'redirectFromSsoOidcProvider:connection_id': oidcConnection.id,
    interaction_id: interactionId,
    full_code: purchaseCode,
    'getPurchaseCheckoutPage:code': purchaseCode,
    'getUnsubscribeLink:code': signUnsubscribeCode(context.unsubscribeSecret, {
      projectId,
      userId: context.userId,
      categoryId: marketingCategoryId,
    }),
    thread_id: threadId,
  };
}
