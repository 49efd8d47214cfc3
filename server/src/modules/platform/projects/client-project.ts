import type { components } from '@gatehouse/protocol/api-types';
import type { Project } from '../../../tenancy/project.ts';

type ClientProject = components['schemas']['ClientProject'];
type OAuthProviderType = components['schemas']['OAuthProviderType'];
type ClientBotChallenge = components['schemas']['ClientBotChallenge'];

/** The public view of a project (`GET /projects/current`), derived from the rendered config; with the sign-up page's bot-challenge widget when the project has one. */
export function toClientProject(project: Project, botChallenge?: ClientBotChallenge): ClientProject {
  const { config } = project;
  const signInProviders = Object.entries(config.auth.oauth.providers).filter(([, provider]) => provider.allowSignIn);
  // Gatehouse's own: the project's own OpenID providers, apart so that `enabled_oauth_providers` keeps Stack's 12 types.
  const ownOidc = signInProviders
    .filter(([, provider]) => provider.type === 'oidc')
    .map(([id, provider]) => ({ id, display_name: String(provider.displayName ?? id) }));
  return {
    id: project.id,
    display_name: project.display_name,
    config: {
      sign_up_enabled: config.auth.allowSignUp,
      credential_enabled: config.auth.password.allowSignIn,
      magic_link_enabled: config.auth.otp.allowSignIn,
      passkey_enabled: config.auth.passkey.allowSignIn,
      client_team_creation_enabled: config.teams.allowClientTeamCreation,
      client_user_deletion_enabled: config.users.allowClientUserDeletion,
      allow_localhost: config.domains.allowLocalhost,
      allow_user_api_keys: config.apiKeys.enabled.user,
      allow_team_api_keys: config.apiKeys.enabled.team,
      ...(botChallenge ? { bot_challenge: botChallenge } : {}),
      ...(config.auth.emailFirst === true ? { email_first: true } : {}),
      ...(config.project.defaultLanguage ? { default_language: config.project.defaultLanguage } : {}),
      enabled_oauth_providers: signInProviders
        .filter(([, provider]) => provider.type !== 'oidc')
        .map(([id, provider]) => ({ id: (provider.type ?? id) as OAuthProviderType })),
      ...(ownOidc.length > 0 ? { oidc_providers: ownOidc } : {}),
      domains: Object.values(config.domains.trustedDomains).map((domain) => ({ domain: domain.baseUrl, handler_path: domain.handlerPath })),
    },
  };
}
