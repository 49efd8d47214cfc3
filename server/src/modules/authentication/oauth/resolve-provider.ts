import {
  InvalidSharedOauthProviderIdError,
  InvalidStandardOauthProviderIdError,
  OauthProviderKeysMissingError,
  OauthProviderNotFoundOrNotEnabledError,
  OauthProviderTemporarilyUnavailableError,
  OidcProviderConfigInvalidError,
} from '@gatehouse/protocol/errors';
import type { OAuthProviderConfig } from '../../../tenancy/project-config.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { OAuthSettings } from './oauth-settings.ts';
import { discoverOidcProvider, isOidcProviderConfig, oidcProviderSettings } from './oidc-provider-config.ts';
import { ProviderClient, type ResolvedProvider } from './provider-client.ts';
import { isProviderType, oidcProfile, type ProviderType, providerTable, sharedKeyProviderTypes } from './provider-table.ts';

/** A provider's type: its `type` setting, else its config id. */
export const providerTypeOf = (configId: string, config: OAuthProviderConfig): string => config.type ?? configId;

/** Shared keys when the provider says so, or when it has no client id of its own. */
export const usesSharedKeys = (config: OAuthProviderConfig): boolean => config.isShared ?? !config.clientId;

/** The provider's config, or OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED when the project has none by that id. */
export function providerConfigOf(project: Project, configId: string): OAuthProviderConfig {
  const providers = project.config.auth.oauth.providers;
  const config = Object.hasOwn(providers, configId) ? providers[configId] : undefined;
  if (!config) throw new OauthProviderNotFoundOrNotEnabledError();
  return config;
}

/**
 * A provider of the project with its endpoints (operator overrides applied) and keys: the project's
 * own, or the operator's shared keys, which only development projects may use.
 */
export function resolveProvider(project: Project, configId: string, settings: OAuthSettings, publicUrl: string): ResolvedProvider {
  const config = providerConfigOf(project, configId);
  if (isOidcProviderConfig(config)) return resolveOidcProvider(configId, config, publicUrl);
  const type = providerTypeOf(configId, config);
  if (!isProviderType(type)) throw new InvalidStandardOauthProviderIdError({ provider_id: type });
  const isShared = usesSharedKeys(config);
  let credentials: ResolvedProvider['credentials'];
  if (isShared) {
    if (!sharedKeyProviderTypes.includes(type)) throw new InvalidSharedOauthProviderIdError({ provider_id: type });
    if (!project.is_development_environment) {
      throw new OauthProviderKeysMissingError(
        { reason: 'shared_keys_outside_development', provider_id: configId },
        `Shared OAuth keys are for development projects only: give ${configId} the project's own client id and secret.`,
      );
    }
    const shared = settings.sharedKeys[type as ProviderType];
    if (!shared) {
      throw new OauthProviderKeysMissingError(
        { reason: 'no_shared_keys_on_server', provider_id: configId },
        `This server has no shared keys for ${type}: give ${configId} the project's own client id and secret.`,
      );
    }
    credentials = shared;
  } else {
    if (!config.clientId || !config.clientSecret) {
      throw new OauthProviderKeysMissingError(
        { reason: 'no_client_credentials', provider_id: configId },
        `The OAuth provider ${configId} has no client id and secret.`,
      );
    }
    credentials = { clientId: config.clientId, clientSecret: config.clientSecret };
  }
  const spec = providerTable[type];
  const customCallbackUrl = typeof config.customCallbackUrl === 'string' && config.customCallbackUrl ? config.customCallbackUrl : undefined;
  return {
    configId,
    type,
    spec,
    endpoints: { ...spec.endpoints(config), ...settings.endpoints[type] },
    credentials,
    isShared,
    redirectUri: customCallbackUrl ?? callbackUrl(publicUrl, configId),
  };
}

const callbackUrl = (publicUrl: string, configId: string) => `${publicUrl}/api/v1/auth/oauth/callback/${encodeURIComponent(configId)}`;

/** A project's own OpenID provider (Gatehouse's own): its endpoints are discovered when a client is made. */
function resolveOidcProvider(configId: string, config: OAuthProviderConfig, publicUrl: string): ResolvedProvider {
  const oidc = oidcProviderSettings(configId, config);
  return {
    configId,
    type: configId as `oidc-${string}`,
    spec: {
      endpoints: () => ({ issuer: oidc.issuer, authorizationUrl: '', tokenUrl: '' }),
      baseScope: oidc.scopes,
      tokenAuth: 'basic',
      profile: oidcProfile,
    },
    endpoints: { issuer: oidc.issuer, authorizationUrl: '', tokenUrl: '' },
    credentials: { clientId: oidc.clientId, clientSecret: oidc.clientSecret },
    isShared: false,
    redirectUri: callbackUrl(publicUrl, configId),
    oidc,
  };
}

/**
 * The client of a resolved provider. A project's own OpenID provider is discovered first (behind the
 * outbound guard): at authorize a failure is OIDC_PROVIDER_CONFIG_INVALID; at the callback, where the same
 * issuer answered moments ago, it is OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE.
 */
export async function providerClientOf(
  project: Project,
  provider: ResolvedProvider,
  step: 'authorize' | 'callback',
): Promise<ProviderClient> {
  if (!provider.oidc) return new ProviderClient(provider);
  try {
    return new ProviderClient(
      provider,
      await discoverOidcProvider(provider.configId, provider.oidc, { allowLoopback: project.config.domains.allowLocalhost }),
    );
  } catch (error) {
    if (step === 'callback' && error instanceof OidcProviderConfigInvalidError) throw new OauthProviderTemporarilyUnavailableError();
    throw error;
  }
}
