import { defineModule } from '../../../kernel/module.ts';
import { projectsModule } from '../../platform/projects/index.ts';
import { usersModule } from '../../identity/users/index.ts';
import { cacheInvalidationModule } from '../../platform/cache-invalidation/index.ts';
import { customClaimsModule } from '../custom-claims/index.ts';
import { OAuthConnectionsService } from './connections.service.ts';
import { OAuthConsentService } from './consent.service.ts';
import * as migration0100 from './migrations/0100-oauth-provider.ts';
import * as migration0300 from './migrations/0300-oauth-application-custom-claims.ts';
import { OAuthApplicationsService } from './oauth-applications.service.ts';
import { oauthProtocolHandlers } from './oauth-protocol.routes.ts';
import { oauthProviderHandlers } from './oauth-provider.routes.ts';
import { ProviderRegistry } from './provider-registry.ts';

/**
 * The project as an OAuth 2.1 authorization server and OpenID provider (oidc-provider, one per project): its
 * applications, the consent step the handler's page answers, and the protocol endpoints under
 * `/api/v1/projects/<id>/oauth`.
 */
export const oauthProviderModule = defineModule({
  name: 'oauth-provider',
  migrations: { '0100-oauth-provider': migration0100, '0300-oauth-application-custom-claims': migration0300 },
  requires: [projectsModule, usersModule, cacheInvalidationModule, customClaimsModule],
  services: ({ users, cacheInvalidation, customClaims }, { db, cipher, serverSecret, publicUrl }) => {
    const oauthProviders = new ProviderRegistry(
      {
        db,
        cipher,
        serverSecret,
        findUser: (project, userId) => users.find(project.id, userId),
        customClaims: (project, template, user) => customClaims.claimsForUser(project, template, user, 'an OAuth application'),
      },
      publicUrl,
      cacheInvalidation,
    );
    return {
      oauthProviders,
      oauthApplications: new OAuthApplicationsService(db, cipher, oauthProviders),
      oauthConsent: new OAuthConsentService(db, oauthProviders),
      oauthConnections: new OAuthConnectionsService(db),
    };
  },
  handlers: (services) => ({ ...oauthProviderHandlers(services), ...oauthProtocolHandlers(services) }),
});
