import { defineModule } from '../../../kernel/module.ts';
import { accessTokensModule } from '../access-tokens/index.ts';
import { botChallengesModule } from '../bot-challenges/index.ts';
import { apiKeysModule } from '../../platform/project-keys/index.ts';
import { projectsModule } from '../../platform/projects/index.ts';
import { sessionsModule } from '../sessions/index.ts';
import { signInModule } from '../sign-in/index.ts';
import { usersModule } from '../../identity/users/index.ts';
import { AppleNativeSignInService } from './apple-native.service.ts';
import { ConnectedAccountService } from './connected-account.service.ts';
import { OAuthAccountService } from './oauth-account.service.ts';
import { OAuthFlowService } from './oauth-flow.service.ts';
import { OAuthLinkService } from './oauth-link.service.ts';
import { type OAuthSettings, readOAuthSettings } from './oauth-settings.ts';
import { oauthTokenHandlers } from './oauth-token.routes.ts';
import { oauthHandlers } from './oauth.routes.ts';
import { TokenSealer } from './token-sealing.ts';
import * as migration0012 from './migrations/0012-oauth.ts';

/**
 * OAuth sign-in with the providers (authorize, callback, the token endpoint), linked provider
 * accounts, connected accounts with their sealed provider tokens; the accounts `POST /users` imports.
 */
export const oauthModule = defineModule({
  name: 'oauth',
  migrations: { '0012-oauth': migration0012 },
  requires: [projectsModule, apiKeysModule, accessTokensModule, usersModule, signInModule, sessionsModule, botChallengesModule],
  settings: (env): OAuthSettings => readOAuthSettings(env),
  services: ({ projects, apiKeys, accessTokens, users, signIn, botChallenges }, { db, settings, serverSecret, publicUrl }) => {
    // Provider tokens are sealed with a key derived from the server secret.
    const sealer = new TokenSealer(serverSecret);
    const accounts = new OAuthAccountService(db, users, sealer, botChallenges);
    const oauthLinks = new OAuthLinkService(db, users);
    users.accountImport.provide((trx, project, userId, account) => oauthLinks.linkImported(trx, project, userId, account));
    return {
      oauthFlows: new OAuthFlowService(db, projects, apiKeys, accessTokens, users, accounts, signIn, botChallenges, settings, publicUrl),
      connectedAccounts: new ConnectedAccountService(db, users, sealer, settings, publicUrl),
      oauthLinks,
      appleNativeSignIn: new AppleNativeSignInService(users, accounts, signIn, settings),
    };
  },
  handlers: (services) => ({ ...oauthHandlers(services), ...oauthTokenHandlers(services) }),
});

// The module's public surface: what other modules may import (through this file only).
export { isProviderType } from './provider-table.ts';
export { providerTypeOf, usesSharedKeys } from './resolve-provider.ts';
export { assertOidcProvidersReachable, isOidcProviderConfig, oidcProviderSettings } from './oidc-provider-config.ts';
export type { OAuthFlowService } from './oauth-flow.service.ts';
export { errorRedirect, trustedRedirectUri } from './flow-redirects.ts';
