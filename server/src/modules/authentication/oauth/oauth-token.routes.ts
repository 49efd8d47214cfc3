import { SchemaError } from '@gatehouse/protocol/errors';
import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { TokenService } from '../sessions/index.ts';
import type { OAuthFlowService } from './oauth-flow.service.ts';
import { accessTokenLifetimeSeconds } from '../access-tokens/index.ts';

const missing = (field: string, grant: string) => {
  const message = `body/${field} is required for grant_type ${grant}`;
  return new SchemaError({ message }, message);
};

/** The OAuth token endpoint: the authorization-code grant of the OAuth flow, and the refresh grant. */
export function oauthTokenHandlers(services: { oauthFlows: OAuthFlowService; tokens: TokenService }) {
  return {
    exchangeOAuthToken: async (request) => {
      const { body } = request;
      const project = await services.oauthFlows.clientProject(body.client_id, body.client_secret, 'token');
      if (body.grant_type === 'authorization_code') {
        for (const field of ['code', 'redirect_uri', 'code_verifier'] as const) if (!body[field]) throw missing(field, body.grant_type);
        const result = await services.oauthFlows.exchangeCode(
          project,
          { code: body.code as string, redirectUri: body.redirect_uri as string, codeVerifier: body.code_verifier as string },
          request.ip,
        );
        return {
          access_token: result.access_token,
          token_type: 'Bearer' as const,
          expires_in: accessTokenLifetimeSeconds,
          refresh_token: result.refresh_token,
          scope: 'legacy' as const,
          is_new_user: result.isNewUser,
          after_callback_redirect_url: result.afterCallbackRedirectUrl,
          newUser: result.isNewUser,
          afterCallbackRedirectUrl: result.afterCallbackRedirectUrl,
        };
      }
      if (!body.refresh_token) throw missing('refresh_token', body.grant_type);
      const tokens = await services.tokens.refresh(project, body.refresh_token, request.ip);
      return {
        access_token: tokens.accessToken,
        token_type: 'Bearer' as const,
        expires_in: accessTokenLifetimeSeconds,
        refresh_token: tokens.refreshToken,
        scope: 'legacy' as const,
      };
    },
  } satisfies Partial<OperationHandlers>;
}
