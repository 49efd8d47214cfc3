import { type ProviderEndpoints, type ProviderType, providerTypes, sharedKeyProviderTypes } from './provider-table.ts';

export type ProviderCredentials = { clientId: string; clientSecret: string };

/** The operator's OAuth settings: endpoint overrides per provider type, and shared (development) keys. */
export type OAuthSettings = {
  endpoints: Partial<Record<ProviderType, Partial<ProviderEndpoints>>>;
  sharedKeys: Partial<Record<ProviderType, ProviderCredentials>>;
  /** Where native Apple sign-in reads Apple's keys (`OAUTH_APPLE_JWKS_URL`; default Apple's own). */
  appleJwksUrl?: string;
};

const endpointVariables: Record<keyof ProviderEndpoints, string> = {
  issuer: 'ISSUER',
  authorizationUrl: 'AUTHORIZATION_URL',
  tokenUrl: 'TOKEN_URL',
  userinfoUrl: 'USERINFO_URL',
  emailsUrl: 'EMAILS_URL',
};

/**
 * `OAUTH_<PROVIDER>_ISSUER`, `_AUTHORIZATION_URL`, `_TOKEN_URL`, `_USERINFO_URL`, `_EMAILS_URL`
 * replace a provider's endpoints (e.g. `OAUTH_GOOGLE_TOKEN_URL`); `OAUTH_SHARED_<PROVIDER>_CLIENT_ID`
 * and `_CLIENT_SECRET` are the shared keys of google, github, microsoft and spotify;
 * `OAUTH_APPLE_JWKS_URL` replaces Apple's identity-token keys (native Apple sign-in).
 */
export function readOAuthSettings(env: NodeJS.ProcessEnv): OAuthSettings {
  const settings: OAuthSettings = { endpoints: {}, sharedKeys: {} };
  for (const type of providerTypes) {
    const prefix = `OAUTH_${type.toUpperCase()}_`;
    const overrides: Partial<ProviderEndpoints> = {};
    for (const [field, suffix] of Object.entries(endpointVariables) as Array<[keyof ProviderEndpoints, string]>) {
      const value = env[`${prefix}${suffix}`];
      if (!value) continue;
      if (!URL.canParse(value)) throw new Error(`${prefix}${suffix} must be a URL, got ${value}`);
      overrides[field] = value;
    }
    if (Object.keys(overrides).length > 0) settings.endpoints[type] = overrides;
  }
  for (const type of sharedKeyProviderTypes) {
    const clientId = env[`OAUTH_SHARED_${type.toUpperCase()}_CLIENT_ID`];
    const clientSecret = env[`OAUTH_SHARED_${type.toUpperCase()}_CLIENT_SECRET`];
    if (clientId && clientSecret) settings.sharedKeys[type] = { clientId, clientSecret };
  }
  const appleJwksUrl = env.OAUTH_APPLE_JWKS_URL;
  if (appleJwksUrl) {
    if (!URL.canParse(appleJwksUrl)) throw new Error(`OAUTH_APPLE_JWKS_URL must be a URL, got ${appleJwksUrl}`);
    settings.appleJwksUrl = appleJwksUrl;
  }
  return settings;
}
