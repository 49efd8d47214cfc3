import { ProjectChangeRefusedError } from '@gatehouse/protocol/errors';
import type { components } from '@gatehouse/protocol/api-types';
import { isProviderType } from '../../authentication/oauth/index.ts';
import { isOidcProviderConfig, providerTypeOf, usesSharedKeys } from '../../authentication/oauth/index.ts';
import type { OAuthProviderConfig, ProjectConfig } from '../../../tenancy/project-config.ts';

type AdminProjectConfig = components['schemas']['AdminProjectConfig'];
type AdminOAuthProvider = components['schemas']['AdminOAuthProvider'];
type AdminEmailConfig = components['schemas']['AdminEmailConfig'];
type ProjectConfigUpdate = components['schemas']['ProjectConfigUpdate'];
type OAuthProviderUpdate = components['schemas']['OAuthProviderUpdate'];
type EmailConfigUpdate = components['schemas']['EmailConfigUpdate'];

const ids = (record: Record<string, true>) => Object.keys(record).map((id) => ({ id }));
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
/** The object without its undefined fields (the view omits what the config does not say). */
const defined = <T extends object>(value: T): T => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

/** The providers of the config whose type the API names (validation refuses the others). */
function knownProviders(config: ProjectConfig) {
  return Object.entries(config.auth.oauth.providers).flatMap(([configId, provider]) => {
    const type = providerTypeOf(configId, provider);
    return isProviderType(type) ? [{ configId, type, provider }] : [];
  });
}

function toAdminOAuthProvider({ configId, type, provider }: ReturnType<typeof knownProviders>[number]): AdminOAuthProvider {
  const bundles = provider.appleBundles;
  return defined({
    provider_config_id: configId,
    id: type,
    type: usesSharedKeys(provider) ? 'shared' : 'standard',
    enabled: provider.allowSignIn === true,
    client_id: text(provider.clientId),
    client_secret: text(provider.clientSecret),
    facebook_config_id: text(provider.facebookConfigId),
    microsoft_tenant_id: text(provider.microsoftTenantId),
    apple_bundle_ids:
      bundles && typeof bundles === 'object'
        ? Object.values(bundles as Record<string, { bundleId?: unknown }>).flatMap((bundle) => text(bundle?.bundleId) ?? [])
        : undefined,
  });
}

function toAdminEmailConfig(server: ProjectConfig['emails']['server']): AdminEmailConfig {
  return defined({
    type: server.isShared === false ? 'standard' : 'shared',
    host: text(server.host),
    port: Number.isInteger(server.port) ? server.port : undefined,
    username: text(server.username),
    password: text(server.password),
    sender_name: text(server.senderName),
    sender_email: text(server.senderEmail),
  });
}

/** The dashboard's (legacy) view of the config tree. */
export function toAdminProjectConfig(config: ProjectConfig): Omit<AdminProjectConfig, 'id'> {
  const providers = knownProviders(config);
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
    oauth_providers: providers.map(toAdminOAuthProvider),
    enabled_oauth_providers: providers.filter(({ provider }) => provider.allowSignIn).map(({ type }) => ({ id: type })),
    domains: Object.values(config.domains.trustedDomains).map((domain) => ({ domain: domain.baseUrl, handler_path: domain.handlerPath })),
    email_config: toAdminEmailConfig(config.emails.server),
    email_theme: config.emails.selectedThemeId,
    team_creator_default_permissions: ids(config.rbac.defaultPermissions.teamCreator),
    team_member_default_permissions: ids(config.rbac.defaultPermissions.teamMember),
    user_default_permissions: ids(config.rbac.defaultPermissions.signUp),
    oauth_account_merge_strategy: config.auth.oauth.accountMergeStrategy,
  };
}

/** The settings of a provider this view writes; the others (e.g. `allowConnectedAccounts`) are kept. */
const legacyProviderSettings = [
  'type',
  'isShared',
  'clientId',
  'clientSecret',
  'facebookConfigId',
  'microsoftTenantId',
  'appleBundles',
  'allowSignIn',
];

/**
 * The whole provider roster of a legacy update. A listed provider keeps its config key (the one of
 * its type already in the config, if any) and the settings the legacy view does not carry.
 */
function toProviderRoster(list: OAuthProviderUpdate[], current: ProjectConfig): Record<string, OAuthProviderConfig> {
  const existing = current.auth.oauth.providers;
  // A project's own OpenID providers (Gatehouse's own) have no place in the legacy list: they are kept as they are.
  const roster: Record<string, OAuthProviderConfig> = Object.fromEntries(
    Object.entries(existing).filter(([, provider]) => isOidcProviderConfig(provider)),
  );
  const seen = new Set<string>();
  for (const provider of list) {
    if (seen.has(provider.id))
      throw new ProjectChangeRefusedError({ reason: 'oauth_provider_listed_twice' }, `OAuth provider ${provider.id} is listed twice.`);
    seen.add(provider.id);
    const configId = Object.hasOwn(existing, provider.id)
      ? provider.id
      : (Object.keys(existing).find((id) => providerTypeOf(id, existing[id] as OAuthProviderConfig) === provider.id) ?? provider.id);
    const kept = Object.fromEntries(
      Object.entries(existing[configId] ?? {}).filter(([setting]) => !legacyProviderSettings.includes(setting)),
    );
    const standard = provider.type === 'standard';
    roster[configId] = defined({
      allowConnectedAccounts: true,
      ...kept,
      type: provider.id,
      isShared: !standard,
      clientId: standard ? provider.client_id : undefined,
      clientSecret: standard ? provider.client_secret : undefined,
      facebookConfigId: provider.facebook_config_id,
      microsoftTenantId: provider.microsoft_tenant_id,
      appleBundles: provider.apple_bundle_ids
        ? Object.fromEntries(provider.apple_bundle_ids.map((bundleId, index) => [`bundle_${index}`, { bundleId }]))
        : undefined,
      allowSignIn: provider.enabled ?? true,
    });
  }
  return roster;
}

function toEmailServer(email: EmailConfigUpdate): ProjectConfig['emails']['server'] {
  return defined({
    isShared: email.type === 'shared',
    provider: email.type === 'standard' ? ('smtp' as const) : undefined,
    host: email.host,
    port: email.port,
    username: email.username,
    password: email.password,
    senderName: email.sender_name,
    senderEmail: email.sender_email,
  });
}

/**
 * The override entries (dotted keys) a legacy config update sets; `current` is the rendered config
 * it applies to (providers keep what the legacy view does not show). Validation is the caller's.
 */
export function toConfigOverride(update: ProjectConfigUpdate, current: ProjectConfig): Record<string, unknown> {
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
  if (update.oauth_providers) override['auth.oauth.providers'] = toProviderRoster(update.oauth_providers, current);
  if (update.domains) {
    override['domains.trustedDomains'] = Object.fromEntries(
      update.domains.map((domain, index) => [`domain_${index}`, { baseUrl: domain.domain, handlerPath: domain.handler_path }]),
    );
  }
  if (update.email_config) override['emails.server'] = toEmailServer(update.email_config);
  set('emails.selectedThemeId', update.email_theme);
  const permissionSet = (list?: Array<{ id: string }>) => (list ? Object.fromEntries(list.map(({ id }) => [id, true])) : undefined);
  set('rbac.defaultPermissions.teamCreator', permissionSet(update.team_creator_default_permissions));
  set('rbac.defaultPermissions.teamMember', permissionSet(update.team_member_default_permissions));
  set('rbac.defaultPermissions.signUp', permissionSet(update.user_default_permissions));
  return override;
}

/**
 * The override entries of a project create or update: its legacy `config` and `require_email_verification`
 * (`onboarding.requireEmailVerification`); undefined when it sets neither.
 */
export function toProjectWriteOverride(
  input: { config?: ProjectConfigUpdate; require_email_verification?: boolean },
  current: ProjectConfig,
): Record<string, unknown> | undefined {
  if (!input.config && input.require_email_verification === undefined) return undefined;
  const override = input.config ? toConfigOverride(input.config, current) : {};
  if (input.require_email_verification !== undefined) override['onboarding.requireEmailVerification'] = input.require_email_verification;
  return override;
}
