import type { components } from '@gatehouse/client/api-types';
import { PlainHttpError } from '../../lib/plain-http-error.ts';
import type { ProjectConfig } from '../projects/project-config.ts';

type AdminProjectConfig = components['schemas']['AdminProjectConfig'];
type ProjectConfigUpdate = components['schemas']['ProjectConfigUpdate'];
type OAuthProviderType = components['schemas']['OAuthProviderType'];

const ids = (record: Record<string, true>) => Object.keys(record).map((id) => ({ id }));

/** The dashboard's (legacy) view of the config tree. */
export function toAdminProjectConfig(config: ProjectConfig): AdminProjectConfig {
  return {
    allow_localhost: config.domains.allowLocalhost,
    sign_up_enabled: config.auth.allowSignUp,
    credential_enabled: config.auth.password.allowSignIn,
    magic_link_enabled: config.auth.otp.allowSignIn,
    passkey_enabled: config.auth.passkey.allowSignIn,
    client_team_creation_enabled: config.teams.allowClientTeamCreation,
    client_user_deletion_enabled: config.users.allowClientUserDeletion,
    allow_user_api_keys: config.apiKeys.enabled.user,
    allow_team_api_keys: config.apiKeys.enabled.team,
    create_team_on_sign_up: config.teams.createPersonalTeamOnSignUp,
    enabled_oauth_providers: Object.entries(config.auth.oauth.providers)
      .filter(([, provider]) => provider.allowSignIn)
      .map(([id, provider]) => ({ id: (provider.type ?? id) as OAuthProviderType })),
    domains: Object.values(config.domains.trustedDomains).map((domain) => ({ domain: domain.baseUrl, handler_path: domain.handlerPath })),
    team_creator_default_permissions: ids(config.rbac.defaultPermissions.teamCreator),
    team_member_default_permissions: ids(config.rbac.defaultPermissions.teamMember),
    user_default_permissions: ids(config.rbac.defaultPermissions.signUp),
    oauth_account_merge_strategy: config.auth.oauth.accountMergeStrategy,
  };
}

/**
 * A trusted domain: an http(s) base URL whose host may hold wildcards (`*`, `**`) but no leading,
 * trailing or double dots.
 */
export function assertValidDomain(domain: string): void {
  const match = /^(https?):\/\/([^/:?#]+)(:\d{1,5})?(\/[^?#]*)?$/i.exec(domain);
  const host = match?.[2];
  if (!match || !host) throw new PlainHttpError(400, `Invalid domain "${domain}": it must be an http or https URL.`);
  if (host.startsWith('.') || host.endsWith('.') || host.includes('..')) {
    throw new PlainHttpError(400, `Invalid domain "${domain}": the host may not start or end with a dot or contain two dots in a row.`);
  }
  if (!/^[a-z0-9*.-]+$/i.test(host)) throw new PlainHttpError(400, `Invalid domain "${domain}": wildcards are allowed only in the host.`);
}

/** The override entries (dotted keys) a legacy config update sets. */
export function toConfigOverride(update: ProjectConfigUpdate): Record<string, unknown> {
  const override: Record<string, unknown> = {};
  const set = (key: string, value: unknown) => {
    if (value !== undefined) override[key] = value;
  };
  set('domains.allowLocalhost', update.allow_localhost);
  set('auth.allowSignUp', update.sign_up_enabled);
  set('auth.password.allowSignIn', update.credential_enabled);
  set('auth.otp.allowSignIn', update.magic_link_enabled);
  set('auth.passkey.allowSignIn', update.passkey_enabled);
  set('teams.allowClientTeamCreation', update.client_team_creation_enabled);
  set('users.allowClientUserDeletion', update.client_user_deletion_enabled);
  set('apiKeys.enabled.user', update.allow_user_api_keys);
  set('apiKeys.enabled.team', update.allow_team_api_keys);
  set('teams.createPersonalTeamOnSignUp', update.create_team_on_sign_up);
  set('auth.oauth.accountMergeStrategy', update.oauth_account_merge_strategy);
  if (update.domains) {
    for (const { domain } of update.domains) assertValidDomain(domain);
    override['domains.trustedDomains'] = Object.fromEntries(
      update.domains.map((domain, index) => [`domain_${index}`, { baseUrl: domain.domain, handlerPath: domain.handler_path }]),
    );
  }
  const permissionSet = (list?: Array<{ id: string }>) => (list ? Object.fromEntries(list.map(({ id }) => [id, true])) : undefined);
  set('rbac.defaultPermissions.teamCreator', permissionSet(update.team_creator_default_permissions));
  set('rbac.defaultPermissions.teamMember', permissionSet(update.team_member_default_permissions));
  set('rbac.defaultPermissions.signUp', permissionSet(update.user_default_permissions));
  return override;
}
