import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import { authOf, userOf } from '../../../request-context/auth-of.ts';
import type { OAuthApplicationsService } from './oauth-applications.service.ts';
import type { OAuthConsentService } from './consent.service.ts';
import type { OAuthConnectionsService } from './connections.service.ts';

/** The owner's operations and the consent page's (the protocol endpoints are in oauth-protocol.routes.ts). */
export function oauthProviderHandlers(services: {
  oauthApplications: OAuthApplicationsService;
  oauthConsent: OAuthConsentService;
  oauthConnections: OAuthConnectionsService;
}) {
  const { oauthApplications, oauthConsent, oauthConnections } = services;
  return {
    listOAuthApplications: async (request) => ({ items: await oauthApplications.list(authOf(request).project) }),
    createOAuthApplication: async (request, reply) =>
      reply.status(201).send(await oauthApplications.create(authOf(request).project, request.body)),
    updateOAuthApplication: async (request) => oauthApplications.update(authOf(request).project, request.params.client_id, request.body),
    deleteOAuthApplication: async (request) => {
      await oauthApplications.delete(authOf(request).project, request.params.client_id);
      return { success: true };
    },
    getOAuthProviderSettings: async (request) => oauthApplications.settings(authOf(request).project),
    updateOAuthProviderSettings: async (request) => oauthApplications.updateSettings(authOf(request).project, request.body),
    getOAuthConsentRequest: async (request) =>
      oauthConsent.describe(authOf(request).project, userOf(request).id, request.params.interaction_id),
    completeOAuthConsentRequest: async (request) =>
      oauthConsent.answer(authOf(request).project, userOf(request).id, request.params.interaction_id, request.body.allow),
    listMyOAuthConnections: async (request) => ({ items: await oauthConnections.list(authOf(request).project, userOf(request).id) }),
    revokeMyOAuthConnection: async (request) => {
      await oauthConnections.revoke(authOf(request).project, userOf(request).id, request.params.client_id);
      return { success: true };
    },
  } satisfies Partial<OperationHandlers>;
}
