import { OidcProviderConfigInvalidError } from '@gatehouse/protocol/errors';
import { discoverOidcIssuer, OidcDiscoveryError } from '../../../lib/oidc/oidc-discovery.ts';
import type { OAuthProviderConfig, ProjectConfig } from '../../../tenancy/project-config.ts';

/** The `type` of a project's own ("bring your own") OpenID Connect provider, a Gatehouse capability. */
export const oidcProviderType = 'oidc';

/** Its config key: `oidc-` and 1 to 40 lowercase letters, digits or inner hyphens (the spec's OidcProviderConfigId). */
const configIdPattern = /^oidc-[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

/** What a project's own OpenID provider says about itself, once checked. */
export type OidcProviderSettings = { issuer: string; clientId: string; clientSecret: string; displayName: string; scopes: string };

export const isOidcProviderConfig = (config: OAuthProviderConfig): boolean => config.type === oidcProviderType;

const invalid = (configId: string, reason: string) =>
  new OidcProviderConfigInvalidError(
    { provider_config_id: configId, reason },
    `The OpenID provider ${configId} cannot be used: ${reason}.`,
  );

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/** The settings of a `type: oidc` provider, or OIDC_PROVIDER_CONFIG_INVALID naming what is wrong. */
export function oidcProviderSettings(configId: string, config: OAuthProviderConfig): OidcProviderSettings {
  if (!configIdPattern.test(configId))
    throw invalid(configId, 'the key must be "oidc-" followed by 1 to 40 lowercase letters, digits or hyphens');
  const issuer = text(config.issuer);
  if (!issuer || !URL.canParse(issuer) || !/^https?:$/.test(new URL(issuer).protocol) || issuer.length > 1000)
    throw invalid(configId, 'issuer must be an http or https URL');
  const displayName = text(config.displayName);
  if (!displayName || displayName.length > 64) throw invalid(configId, 'displayName must be a text of 1 to 64 characters');
  const clientId = text(config.clientId);
  const clientSecret = text(config.clientSecret);
  if (!clientId || !clientSecret || config.isShared === true)
    throw invalid(configId, 'clientId and clientSecret are needed (there are no shared keys for an OpenID provider)');
  if (config.scopes !== undefined && (typeof config.scopes !== 'string' || config.scopes.length > 1000))
    throw invalid(configId, 'scopes must be a space-separated text');
  // `openid` is what makes the answer carry an ID token; it is always asked for.
  const scopes = [
    ...new Set(['openid', ...(typeof config.scopes === 'string' ? config.scopes.split(/\s+/).filter(Boolean) : ['email', 'profile'])]),
  ];
  return { issuer, clientId, clientSecret, displayName, scopes: scopes.join(' ') };
}

/**
 * On save: every own OpenID provider that is new or whose issuer or client changed must answer its
 * discovery document at an address the project may reach (the outbound guard), else nothing is saved.
 */
export async function assertOidcProvidersReachable(previous: ProjectConfig | undefined, next: ProjectConfig): Promise<void> {
  const policy = { allowLoopback: next.domains.allowLocalhost };
  for (const [configId, config] of Object.entries(next.auth.oauth.providers)) {
    if (!isOidcProviderConfig(config)) continue;
    const settings = oidcProviderSettings(configId, config);
    const before = previous?.auth.oauth.providers[configId];
    const unchanged =
      before !== undefined &&
      isOidcProviderConfig(before) &&
      before.issuer === config.issuer &&
      before.clientId === config.clientId &&
      previous?.domains.allowLocalhost === next.domains.allowLocalhost;
    if (unchanged) continue;
    await discoverOidcProvider(configId, settings, policy);
  }
}

/** The provider's discovered configuration (requests behind the outbound guard), or OIDC_PROVIDER_CONFIG_INVALID. */
export async function discoverOidcProvider(configId: string, settings: OidcProviderSettings, policy: { allowLoopback: boolean }) {
  try {
    return await discoverOidcIssuer(settings.issuer, settings, policy);
  } catch (error) {
    if (error instanceof OidcDiscoveryError) throw invalid(configId, error.reason);
    throw error;
  }
}
