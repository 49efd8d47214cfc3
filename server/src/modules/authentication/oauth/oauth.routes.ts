import { SchemaError } from '@gatehouse/protocol/errors';
import type { FastifyReply } from 'fastify';
import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import { redirect, stringsOf } from '../../../routing/redirect-replies.ts';
import type { AppleNativeSignInService } from './apple-native.service.ts';
import type { ConnectedAccountService } from './connected-account.service.ts';
import type { OAuthFlowService } from './oauth-flow.service.ts';
import type { OAuthLinkService } from './oauth-link.service.ts';
import { authOf, userOf } from '../../../request-context/auth-of.ts';
import { resolveUserId } from '../../../request-context/resolve-user-id.ts';
import { toOAuthProvider } from './oauth-link.service.ts';
import { innerCookiePrefix, outerFlowLifetimeMillis } from './oauth-flow.service.ts';

const callbackCookiePath = '/api/v1/auth/oauth/callback';
/** The characters of a cookie name (RFC 6265 token). */
const cookieNameToken = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export function oauthHandlers(services: {
  oauthFlows: OAuthFlowService;
  connectedAccounts: ConnectedAccountService;
  oauthLinks: OAuthLinkService;
  appleNativeSignIn: AppleNativeSignInService;
}) {
  // Apple answers with a cross-site form POST, which carries only SameSite=None cookies (those need HTTPS).
  const secureCookies = services.oauthFlows.publicUrlIsHttps;

  const callback = async (
    providerId: string,
    parameters: Record<string, string>,
    cookies: Record<string, string | undefined>,
    ip: string,
    reply: FastifyReply,
  ) => {
    // A state that cannot be a cookie name (the server's are URL-safe tokens) has no cookie to clear.
    if (parameters.state && cookieNameToken.test(parameters.state))
      reply.clearCookie(`${innerCookiePrefix}${parameters.state}`, { path: callbackCookiePath });
    const { location } = await services.oauthFlows.callback(providerId, parameters, cookies, ip);
    return redirect(reply, 303, location);
  };

  const accessToken = async (
    request: { params: { user_id: string; provider_id: string; provider_account_id?: string }; body: { scope?: string } },
    auth: ReturnType<typeof authOf>,
    reply: FastifyReply,
  ) => {
    const userId = resolveUserId(auth, request.params.user_id);
    const token = await services.connectedAccounts.accessToken(
      auth.project,
      userId,
      request.params.provider_id,
      request.params.provider_account_id,
      request.body.scope,
    );
    reply.status(201);
    return token;
  };

  return {
    redirectToOAuthProvider: async (request, reply) => {
      const { query } = request;
      const jsonMode = query.stack_response_mode === 'json' || query.hexclave_response_mode === 'json';
      const { location, cookie } = await services.oauthFlows.authorize({
        providerConfigId: request.params.provider_id,
        clientId: query.client_id,
        clientSecret: query.client_secret,
        redirectUri: query.redirect_uri,
        scope: query.scope,
        state: query.state,
        codeChallenge: query.code_challenge,
        type: query.type ?? 'authenticate',
        token: query.token || undefined,
        providerScope: query.provider_scope || undefined,
        errorRedirectUrl: query.error_redirect_uri ?? query.error_redirect_url,
        afterCallbackRedirectUrl: query.after_callback_redirect_url,
        jsonMode,
        botChallenge: {
          bot_challenge_token: query.bot_challenge_token || undefined,
          bot_challenge_phase: query.bot_challenge_phase,
          bot_challenge_unavailable: query.bot_challenge_unavailable,
        },
        ip: request.ip,
      });
      if (jsonMode) return { location };
      if (cookie) {
        reply.setCookie(cookie.name, cookie.value, {
          path: callbackCookiePath,
          httpOnly: true,
          secure: secureCookies,
          sameSite: secureCookies ? 'none' : 'lax',
          maxAge: outerFlowLifetimeMillis / 1000,
        });
      }
      return redirect(reply, 307, location);
    },

    signInWithAppleNative: async (request) => {
      const auth = authOf(request);
      // An anonymous caller is upgraded in place, as in the OAuth flow.
      const anonymousUserId = auth.user?.record.is_anonymous ? auth.user.record.id : null;
      return services.appleNativeSignIn.signInWithIdToken(auth.project, request.body.id_token, { anonymousUserId, ip: request.ip });
    },

    createCrossDomainAuthorization: async (request) => {
      const { body } = request;
      return services.oauthFlows.crossDomainAuthorize(authOf(request).project, userOf(request).id, {
        redirectUri: body.redirect_uri,
        state: body.state,
        codeChallenge: body.code_challenge,
        afterCallbackRedirectUrl: body.after_callback_redirect_url,
      });
    },

    redirectFromOAuthProvider: async (request, reply) =>
      callback(request.params.provider_id, stringsOf(request.query), request.cookies, request.ip, reply),

    redirectFromOAuthProviderForm: async (request, reply) =>
      callback(request.params.provider_id, stringsOf(request.body), request.cookies, request.ip, reply),

    getOwnConnectedAccountAccessToken: async (request, reply) => {
      const auth = authOf(request);
      return accessToken(
        { params: { user_id: userOf(request).id, provider_id: request.params.provider_id }, body: request.body },
        auth,
        reply,
      );
    },

    getConnectedAccountAccessToken: async (request, reply) => accessToken(request, authOf(request), reply),

    getConnectedAccountAccessTokenForAccount: async (request, reply) => accessToken(request, authOf(request), reply),

    listConnectedAccounts: async (request) => {
      const auth = authOf(request);
      const items = await services.connectedAccounts.list(auth.project.id, resolveUserId(auth, request.params.user_id));
      return { items, is_paginated: false as const };
    },

    listOAuthProviders: async (request) => {
      const auth = authOf(request);
      // Client access always lists its own user's accounts; server access may list the whole project's.
      const requested = request.query.user_id ?? (auth.accessType === 'client' ? 'me' : undefined);
      const userId = requested === undefined ? undefined : resolveUserId(auth, requested);
      const rows = await services.oauthLinks.list(auth.project.id, userId);
      return { items: rows.map((row) => toOAuthProvider(row, auth.accessType)), is_paginated: false as const };
    },

    createOAuthProvider: async (request, reply) => {
      const auth = authOf(request);
      const { body } = request;
      const row = await services.oauthLinks.create(auth.project, resolveUserId(auth, body.user_id), {
        providerConfigId: body.provider_config_id,
        accountId: body.account_id,
        email: body.email,
        allowSignIn: body.allow_sign_in,
        allowConnectedAccounts: body.allow_connected_accounts,
      });
      reply.status(201);
      return toOAuthProvider(row, 'server') as ReturnType<typeof toOAuthProvider> & { account_id: string };
    },

    getOAuthProvider: async (request) => {
      const auth = authOf(request);
      const row = await services.oauthLinks.get(auth.project.id, resolveUserId(auth, request.params.user_id), request.params.provider_id);
      return toOAuthProvider(row, auth.accessType);
    },

    updateOAuthProvider: async (request) => {
      const auth = authOf(request);
      const { body } = request;
      if (auth.accessType === 'client' && (body.email !== undefined || body.account_id !== undefined)) {
        const message = 'body/email and body/account_id may only be changed with server or admin access';
        throw new SchemaError({ message }, message);
      }
      const userId = resolveUserId(auth, request.params.user_id);
      return toOAuthProvider(await services.oauthLinks.update(auth.project.id, userId, request.params.provider_id, body), auth.accessType);
    },

    deleteOAuthProvider: async (request) => {
      const auth = authOf(request);
      await services.oauthLinks.delete(auth.project.id, resolveUserId(auth, request.params.user_id), request.params.provider_id);
      return { success: true } as const;
    },
  } satisfies Partial<OperationHandlers>;
}
