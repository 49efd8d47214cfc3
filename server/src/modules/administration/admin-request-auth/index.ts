import { defineModule } from '../../../kernel/module.ts';
import { RequestAuthenticator } from '../../../request-context/request-auth.ts';
import { accessTokensModule } from '../../authentication/access-tokens/index.ts';
import { apiKeysModule } from '../../platform/project-keys/index.ts';
import { internalModule } from '../admin-api/index.ts';
import { projectsModule } from '../../platform/projects/index.ts';
import { sessionsModule } from '../../authentication/sessions/index.ts';
import { usersModule } from '../../identity/users/index.ts';
import { webhooksModule } from '../../messaging/webhooks/index.ts';

/** What the webhook portal token (POST /webhooks/svix-token) may call in place of the admin key. */
const webhookPortalPaths = ['/internal/webhooks/', '/internal/send-test-webhook'] as const;

/**
 * Request authentication (request-context/request-auth.ts) wired to the features it asks: the
 * project, its keys, the token, the user and, for admin tokens, project ownership. Every operation's
 * `preParsing` runs it (routing/register-operations.ts).
 */
export const requestAuthModule = defineModule({
  name: 'request-auth',
  requires: [projectsModule, apiKeysModule, accessTokensModule, usersModule, internalModule, webhooksModule, sessionsModule],
  services: ({ projects, apiKeys, accessTokens, users, internalProjects, webhookEndpoints, sessions }) => ({
    requestAuth: new RequestAuthenticator({
      findProject: (projectId) => projects.find(projectId),
      isValidKey: (projectId, kind, key) => apiKeys.isValidKey(projectId, kind, key),
      verifyAccessToken: (token) => accessTokens.verify(token),
      managesProject: (userId, project) => internalProjects.manages(userId, project),
      loadUser: (projectId, userId) => users.find(projectId, userId),
      scopedAdminKey: (projectId, key) => (webhookEndpoints.isPortalToken(projectId, key) ? webhookPortalPaths : undefined),
      isSessionAlive: (projectId, sessionId) => sessions.isAlive(projectId, sessionId),
    }),
  }),
});
