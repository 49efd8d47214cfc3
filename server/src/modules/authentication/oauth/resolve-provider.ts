import {
  InvalidSharedOauthProviderIdError,
  InvalidStandardOauthProviderIdError,
  OauthProviderKeysMissingError,
  OauthProviderNotFoundOrNotEnabledError,
} from '@gatehouse/protocol/errors';
import type { OAuthProviderConfig } from '../../../tenancy/project-config.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { OAuthSettings } from './oauth-settings.ts';
import type { ResolvedProvider } from './provider-client.ts';
import { isProviderType, type ProviderType, providerTable, sharedKeyProviderTypes } from './provider-table.ts';

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
    redirectUri: customCallbackUrl ?? `${publicUrl}/api/v1/auth/oauth/callback/${encodeURIComponent(configId)}`,
  };
}
