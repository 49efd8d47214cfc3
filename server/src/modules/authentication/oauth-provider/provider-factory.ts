import { createHmac } from 'node:crypto';
import Provider, { type Configuration, errors, interactionPolicy } from 'oidc-provider';
import type { DbHandle } from '../../../db/handle.ts';
import type { AtRestCipher } from '../../../lib/at-rest-cipher.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { UserRecord } from '../../../tenancy/user-record.ts';
import { adapterFactory } from './provider-adapter.ts';
import { oidcScopes, standardClaims } from './scopes.ts';

export type ProviderNeeds = {
  db: DbHandle;
  cipher: AtRestCipher;
  serverSecret: Buffer;
  findUser(project: Project, userId: string): Promise<UserRecord | undefined>;
  /** The claims an application's template gives a user (custom-claims: never throws, `{}` when nothing applies). */
  customClaims(project: Project, template: CustomClaimsTemplate, user: UserRecord): Promise<Record<string, unknown>>;
};

/** Claim name → CEL expression (the application's `custom_claims`). */
export type CustomClaimsTemplate = Record<string, string>;

export type ProviderOptions = {
  issuer: string;
  /** Where oidc-provider sends the browser for sign-in and consent (the handler's consent page). */
  consentPageUrl: string;
  allowDynamicRegistration: boolean;
  /** Every scope of the project's applications (the provider refuses scopes it does not know). */
  apiScopes: readonly string[];
  /** Private JWKs, the signing one first (see signing-keys.ts). */
  keys: readonly Record<string, unknown>[];
  /** The custom claims templates of the project's applications that have one, by client id. */
  customClaims: ReadonlyMap<string, CustomClaimsTemplate>;
};

/** Lifetimes (seconds): short codes and interactions, hour-long access tokens, refresh tokens rotated on use. */
const ttl = {
  AccessToken: 3600,
  AuthorizationCode: 60,
  ClientCredentials: 600,
  IdToken: 3600,
  Interaction: 600,
  Grant: 30 * 24 * 3600,
  RefreshToken: 30 * 24 * 3600,
  Session: 30 * 24 * 3600,
};

/**
 * The login prompt always asks Gatehouse: the consent page confirms the user signed in to the project right now, so
 * oidc-provider's own browser session never answers for a user who has since signed out or switched accounts.
 */
function gatehousePolicy() {
  const policy = interactionPolicy.base();
  policy
    .get('login')
    ?.checks.add(
      new interactionPolicy.Check('gatehouse_session', 'the project confirms its signed-in user', (ctx) =>
        ctx.oidc.result?.login ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT,
      ),
    );
  return policy;
}

/** One project's OpenID provider (oidc-provider, mounted at the issuer's path by oauth-protocol.routes.ts). */
export function createProvider(project: Project, options: ProviderOptions, needs: ProviderNeeds): Provider {
  const cookieKey = createHmac('sha256', needs.serverSecret).update(`oauth-provider-cookies:${project.id}`).digest('base64url');
  const configuration: Configuration = {
    adapter: adapterFactory(needs.db, project.id, needs.cipher),
    clients: [],
    jwks: { keys: options.keys as never },
    cookies: { keys: [cookieKey] },
    scopes: [...new Set([...oidcScopes, ...options.apiScopes])],
    // An application's custom claims go with `openid` (ID token, userinfo); each application releases only its own.
    claims: { ...standardClaims, openid: [...new Set([...standardClaims.openid, ...customClaimNames(options.customClaims)])] },
    clientDefaults: {
      id_token_signed_response_alg: 'ES256',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      // A dynamically registered client that names no scope may ask for the OpenID ones (not the project's API scopes).
      scope: oidcScopes.join(' '),
    },
    enabledJWA: { idTokenSigningAlgValues: ['ES256'], userinfoSigningAlgValues: ['ES256'] },
    responseTypes: ['code'],
    // OAuth 2.1: every authorization code request carries an S256 challenge, public client or not.
    pkce: { required: () => true },
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx, client, code) => client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    ttl,
    findAccount: async (ctx, accountId) => {
      const user = await needs.findUser(project, accountId);
      if (!user || user.is_anonymous) return undefined;
      const template = ctx.oidc.client ? options.customClaims.get(ctx.oidc.client.clientId) : undefined;
      return {
        accountId,
        claims: async () => ({
          ...(template ? await needs.customClaims(project, template, user) : {}),
          sub: accountId,
          email: user.primary_email ?? undefined,
          email_verified: user.primary_email_verified ?? false,
          name: user.display_name ?? undefined,
          picture: user.profile_image_url ?? undefined,
        }),
      };
    },
    // Access tokens issued for a user (not client credentials) carry the application's custom claims: in the JWT of a
    // `resource`, and in introspection for the opaque ones.
    extraTokenClaims: async (_ctx, token) => {
      const template = token.clientId ? options.customClaims.get(token.clientId) : undefined;
      const accountId = 'accountId' in token ? token.accountId : undefined;
      if (!template || typeof accountId !== 'string') return undefined;
      const user = await needs.findUser(project, accountId);
      return user ? needs.customClaims(project, template, user) : undefined;
    },
    interactions: {
      policy: gatehousePolicy(),
      url: (_ctx, interaction) => {
        const target = new URL(options.consentPageUrl);
        target.searchParams.set('interaction', interaction.uid);
        target.searchParams.set('project_id', project.id);
        return target.href;
      },
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      registration: { enabled: options.allowDynamicRegistration, initialAccessToken: false },
      resourceIndicators: {
        enabled: true,
        // A token request without `resource` uses the one the user granted (MCP clients, refreshes).
        useGrantedResource: () => true,
        // Any absolute URL names an API (RFC 8707); its tokens are ES256 JWTs for that audience, with the scopes the
        // client is registered for that are not OpenID ones.
        getResourceServerInfo: (_ctx, resource, client) => {
          if (!/^https?:\/\//.test(resource)) throw new errors.InvalidTarget();
          const scope = (client.scope ?? '')
            .split(' ')
            .filter((name) => name && !oidcScopes.includes(name))
            .join(' ');
          return { scope, audience: resource, accessTokenFormat: 'jwt', accessTokenTTL: ttl.AccessToken, jwt: { sign: { alg: 'ES256' } } };
        },
      },
    },
    renderError: async (ctx, out) => {
      ctx.type = 'json';
      ctx.body = out;
    },
  };
  const provider = new Provider(options.issuer, configuration);
  // The platform may sit behind a proxy that terminates TLS (its trustProxy decides what the request says).
  provider.proxy = true;
  return provider;
}

function customClaimNames(templates: ReadonlyMap<string, CustomClaimsTemplate>): string[] {
  return [...templates.values()].flatMap((template) => Object.keys(template));
}
