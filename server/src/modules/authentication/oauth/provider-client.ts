import {
  KnownError,
  OauthProviderAccessDeniedError,
  OauthProviderSignInFailedError,
  OauthProviderTemporarilyUnavailableError,
  OidcProviderResponseInvalidError,
} from '@gatehouse/protocol/errors';
import * as client from 'openid-client';
import type { ProviderCredentials } from './oauth-settings.ts';
import type { OidcProviderSettings } from './oidc-provider-config.ts';
import type { ProviderEndpoints, ProviderProfile, ProviderSpec, ProviderType } from './provider-table.ts';

/** A provider of a project, ready to talk to: its spec, endpoints (overrides applied) and keys. */
export type ResolvedProvider = {
  configId: string;
  /** A built-in type, or for a project's own OpenID provider its config id (each is a type of its own). */
  type: ProviderType | `oidc-${string}`;
  spec: ProviderSpec;
  endpoints: ProviderEndpoints;
  credentials: ProviderCredentials;
  isShared: boolean;
  /** Our callback URL registered at the provider. */
  redirectUri: string;
  /** A project's own OpenID provider (Gatehouse's own): its endpoints come from discovery, its answer must carry an ID token. */
  oidc?: OidcProviderSettings;
};

export type ProviderTokens = { accessToken: string; refreshToken: string | null; expiresAt: Date | null; scopes: string[] };

/** Scopes as a set: providers separate them by spaces, some (GitHub) by commas. */
export const splitScopes = (scope: string | undefined | null): string[] => [
  ...new Set(
    (scope ?? '')
      .split(/[\s,]+/)
      .map((part) => part.trim())
      .filter(Boolean),
  ),
];

/** Provider HTTP calls give up after this many seconds (openid-client's default is 30). */
const providerTimeoutSeconds = 15;

/**
 * One provider's side of the OAuth round trip, through openid-client: the authorization URL (PKCE
 * S256), the code exchange (state, PKCE and, for OpenID providers, the ID token's claims are checked
 * by the library), the profile, and token refresh. Provider failures become the catalogue's errors.
 */
export class ProviderClient {
  private readonly configuration: client.Configuration;

  /** `discovered`: the configuration of a project's own OpenID provider (lib/oidc, behind the outbound guard). */
  constructor(
    private readonly provider: ResolvedProvider,
    discovered?: client.Configuration,
  ) {
    const { endpoints, credentials, spec } = provider;
    if (discovered) {
      this.configuration = discovered;
      return;
    }
    this.configuration = new client.Configuration(
      {
        issuer: endpoints.issuer,
        authorization_endpoint: endpoints.authorizationUrl,
        token_endpoint: endpoints.tokenUrl,
        userinfo_endpoint: endpoints.userinfoUrl,
      },
      credentials.clientId,
      { client_secret: credentials.clientSecret },
      spec.tokenAuth === 'basic' ? client.ClientSecretBasic(credentials.clientSecret) : client.ClientSecretPost(credentials.clientSecret),
    );
    this.configuration.timeout = providerTimeoutSeconds;
    // Plain HTTP only ever comes from an operator's endpoint override (a local test provider).
    if (Object.values(endpoints).some((url) => typeof url === 'string' && url.startsWith('http:'))) {
      client.allowInsecureRequests(this.configuration);
    }
  }

  scopeWith(extraScope: string | undefined): string {
    return [...new Set([...splitScopes(this.provider.spec.baseScope), ...splitScopes(extraScope)])].join(' ');
  }

  async authorizationUrl(options: { state: string; codeVerifier: string; scope: string; nonce?: string }): Promise<string> {
    return client
      .buildAuthorizationUrl(this.configuration, {
        redirect_uri: this.provider.redirectUri,
        response_type: 'code',
        scope: options.scope,
        state: options.state,
        ...(options.nonce ? { nonce: options.nonce } : {}),
        code_challenge: await client.calculatePKCECodeChallenge(options.codeVerifier),
        code_challenge_method: 'S256',
        ...this.provider.spec.authorizationParams,
      })
      .toString();
  }

  /** The provider's callback parameters → tokens and profile. `extras` are form fields such as Apple's `user`. */
  async exchangeCode(
    parameters: Record<string, string>,
    checks: { state: string; codeVerifier: string; requestedScope: string; nonce?: string },
  ): Promise<{ profile: ProviderProfile; tokens: ProviderTokens }> {
    const currentUrl = new URL(this.provider.redirectUri);
    for (const name of ['code', 'state', 'error', 'error_description', 'error_uri', 'iss']) {
      const value = parameters[name];
      if (value !== undefined) currentUrl.searchParams.set(name, value);
    }
    const response = await this.call(() =>
      client.authorizationCodeGrant(this.configuration, currentUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        // A project's own OpenID provider must answer with an ID token bound to this sign-in's nonce.
        ...(this.provider.oidc ? { expectedNonce: checks.nonce, idTokenExpected: true } : {}),
      }),
    );
    const tokens = toTokens(response, splitScopes(checks.requestedScope));
    if (this.provider.oidc) return { profile: await this.oidcProfile(response, tokens.accessToken), tokens };
    const userinfo = this.provider.endpoints.userinfoUrl
      ? await this.fetchJson(this.provider.endpoints.userinfoUrl, tokens.accessToken)
      : ((response.claims() ?? {}) as Record<string, unknown>);
    const emails = this.provider.endpoints.emailsUrl
      ? await this.fetchJson(this.provider.endpoints.emailsUrl, tokens.accessToken).catch(() => undefined)
      : undefined;
    let profile: ProviderProfile;
    try {
      profile = this.provider.spec.profile(userinfo as Record<string, unknown>, emails);
    } catch (error) {
      throw new OauthProviderSignInFailedError(
        { reason: 'profile_unreadable' },
        `The provider's profile could not be read: ${(error as Error).message}`,
      );
    }
    const appleName = this.provider.type === 'apple' ? appleUserName(parameters.user) : null;
    return { profile: { ...profile, displayName: profile.displayName ?? appleName }, tokens };
  }

  /** The ID token's claims over userinfo's (whose subject openid-client checks against the ID token's). */
  private async oidcProfile(response: client.TokenEndpointResponseHelpers, accessToken: string): Promise<ProviderProfile> {
    const claims = (response.claims() ?? {}) as Record<string, unknown>;
    const userinfo = this.configuration.serverMetadata().userinfo_endpoint
      ? await client.fetchUserInfo(this.configuration, accessToken, String(claims.sub)).catch(() => ({}))
      : {};
    try {
      return this.provider.spec.profile({ ...userinfo, ...claims }, undefined);
    } catch (error) {
      throw this.oidcRefusal((error as Error).message);
    }
  }

  private oidcRefusal(reason: string) {
    const configId = this.provider.configId;
    return new OidcProviderResponseInvalidError(
      { provider_config_id: configId, reason },
      `The answer of the OpenID provider ${configId} was refused: ${reason}.`,
    );
  }

  /** A new access token from a refresh token (which the provider may rotate). */
  async refresh(refreshToken: string, scopes: string[]): Promise<ProviderTokens> {
    const response = await client.refreshTokenGrant(this.configuration, refreshToken);
    return toTokens(response, scopes);
  }

  private async fetchJson(url: string, accessToken: string): Promise<unknown> {
    const headers = new Headers({
      accept: 'application/json',
      'user-agent': 'Gatehouse',
      ...this.provider.spec.userinfoHeaders?.(this.provider.credentials.clientId),
    });
    const response = await this.call(() =>
      client.fetchProtectedResource(this.configuration, accessToken, new URL(url), 'GET', null, headers),
    );
    if (response.status >= 500) throw new OauthProviderTemporarilyUnavailableError();
    if (!response.ok) {
      throw new OauthProviderSignInFailedError(
        { reason: 'account_description_refused' },
        `The provider refused to describe the account (HTTP ${response.status}).`,
      );
    }
    return response.json();
  }

  /** Runs a provider call, turning its failures into the catalogue's errors. */
  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const mapped = providerError(error);
      // A project's own OpenID provider: an answer we could not accept (a spoiled ID token, a wrong issuer or nonce)
      // is its own refusal, naming the configuration; an OAuth error the provider itself answered stays as it is.
      if (this.provider.oidc && mapped instanceof OauthProviderSignInFailedError && !isOAuthErrorAnswer(error)) {
        throw this.oidcRefusal(detailOf(error));
      }
      throw mapped;
    }
  }
}

const isOAuthErrorAnswer = (error: unknown): error is client.AuthorizationResponseError | client.ResponseBodyError =>
  error instanceof client.AuthorizationResponseError || error instanceof client.ResponseBodyError;

const detailOf = (error: unknown): string => (isOAuthErrorAnswer(error) ? error.error : (error as Error).message);

export function providerError(error: unknown): Error {
  if (error instanceof client.AuthorizationResponseError || error instanceof client.ResponseBodyError) {
    const code = error.error;
    if (code === 'access_denied' || code === 'consent_required') return new OauthProviderAccessDeniedError();
    if (code === 'temporarily_unavailable' || code === 'server_error') return new OauthProviderTemporarilyUnavailableError();
    if (error instanceof client.ResponseBodyError && error.status >= 500) return new OauthProviderTemporarilyUnavailableError();
    if (code === 'invalid_grant') {
      return new OauthProviderSignInFailedError(
        { reason: 'code_refused' },
        'The provider refused its code (expired or already used); sign in again.',
      );
    }
    return new OauthProviderSignInFailedError(
      { reason: 'sign_in_refused', provider_error: code },
      `The provider refused the sign-in: ${code}${error.error_description ? ` (${error.error_description})` : ''}`,
    );
  }
  if (isNetworkFailure(error)) return new OauthProviderTemporarilyUnavailableError();
  // A 5xx answer that is not an OAuth error body (openid-client keeps the response as the cause).
  if (error instanceof Error && error.cause instanceof Response && error.cause.status >= 500)
    return new OauthProviderTemporarilyUnavailableError();
  if (error instanceof Error && !(error instanceof KnownError)) {
    return new OauthProviderSignInFailedError(
      { reason: 'answer_not_accepted' },
      `The provider's answer was not accepted: ${error.message}`,
    );
  }
  return error as Error;
}

function isNetworkFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return true;
  return error instanceof TypeError && error.message === 'fetch failed';
}

function toTokens(response: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers, requested: string[]): ProviderTokens {
  const expiresIn = response.expiresIn();
  return {
    accessToken: response.access_token,
    refreshToken: response.refresh_token ?? null,
    expiresAt: expiresIn === undefined ? null : new Date(Date.now() + expiresIn * 1000),
    // The provider's answer names the granted scopes when they differ from the requested ones (RFC 6749 §5.1).
    scopes: typeof response.scope === 'string' ? splitScopes(response.scope) : requested,
  };
}

/** Apple sends the name (first sign-in only) as JSON in the form's `user` field. */
function appleUserName(user: string | undefined): string | null {
  if (!user) return null;
  try {
    const name = (JSON.parse(user) as { name?: { firstName?: string; lastName?: string } }).name;
    const full = [name?.firstName, name?.lastName].filter(Boolean).join(' ');
    return full || null;
  } catch {
    return null;
  }
}
