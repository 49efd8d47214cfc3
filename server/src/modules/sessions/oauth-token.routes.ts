import { InvalidOauthClientIdOrSecretError, PublishableClientKeyRequiredForProjectError } from '@gatehouse/client/errors';
import type { OperationHandlers } from '../../routing/operation-handlers.ts';
import type { Services } from '../../services.ts';
import { accessTokenLifetimeSeconds } from '../auth/access-token.service.ts';

/** The sentinel client secret of clients without a publishable key. */
const publicClientSecret = '__stack_public_client__';

export function oauthTokenHandlers(services: Services) {
  return {
    exchangeOAuthToken: async (request) => {
      const { client_id: clientId, client_secret: clientSecret, refresh_token: refreshToken } = request.body;
      const projectId = (clientId.split('#')[0] as string).toLowerCase();
      const project = await services.projects.find(projectId);
      if (!project) throw new InvalidOauthClientIdOrSecretError({ client_id: clientId });
      if (clientSecret === undefined || clientSecret === '' || clientSecret === publicClientSecret) {
        if (project.config.project.requirePublishableClientKey)
          throw new PublishableClientKeyRequiredForProjectError({ project_id: project.id });
      } else if (!(await services.apiKeys.isValidKey(project.id, 'publishable_client_key', clientSecret))) {
        throw new InvalidOauthClientIdOrSecretError({ client_id: clientId });
      }
      const tokens = await services.tokens.refresh(project, refreshToken, request.ip);
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
