import { SsoConnectionConfigInvalidError, SsoResponseInvalidError } from '@gatehouse/protocol/errors';
import * as client from 'openid-client';
import type { OutboundPolicy } from '../../../lib/outbound/address-policy.ts';
import { discoverOidcIssuer, OidcDiscoveryError } from '../../../lib/oidc/oidc-discovery.ts';
import type { HostResolver } from '../../../lib/outbound/outbound-target.ts';
import type { OidcSettings } from './sso.table.ts';

export const oidcRedirectUri = (publicUrl: string, connectionId: string) =>
  `${publicUrl.replace(/\/$/, '')}/api/v1/auth/sso/oidc/${connectionId}/callback`;

export const oidcRefusal = (detail: string) =>
  new SsoResponseInvalidError({ protocol: 'oidc', reason: 'oidc_error' }, `The OpenID provider's answer was refused: ${detail}.`);

/**
 * The OpenID provider of a connection, through openid-client: discovery (lib/oidc, behind the outbound
 * guard), the authorization URL (code + PKCE S256 + nonce) and the code exchange whose ID token
 * openid-client checks (signature by the provider's JWKS, issuer, audience, expiry, nonce).
 */
export async function discoverProvider(
  settings: OidcSettings,
  clientSecret: string,
  policy: OutboundPolicy,
  resolve?: HostResolver,
): Promise<client.Configuration> {
  try {
    return await discoverOidcIssuer(settings.issuer, { clientId: settings.clientId, clientSecret }, policy, resolve);
  } catch (error) {
    if (!(error instanceof OidcDiscoveryError)) throw error;
    throw new SsoConnectionConfigInvalidError({ reason: error.reason }, `The OpenID connection cannot be used: ${error.reason}.`);
  }
}

export async function authorizationUrl(
  configuration: client.Configuration,
  parameters: { redirectUri: string; scope: string; state: string; nonce: string; codeVerifier: string; loginHint?: string },
): Promise<string> {
  return client
    .buildAuthorizationUrl(configuration, {
      redirect_uri: parameters.redirectUri,
      response_type: 'code',
      scope: parameters.scope,
      state: parameters.state,
      nonce: parameters.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(parameters.codeVerifier),
      code_challenge_method: 'S256',
      ...(parameters.loginHint ? { login_hint: parameters.loginHint } : {}),
    })
    .toString();
}

/** The callback's parameters → the ID token's claims merged with userinfo's (the ID token wins on `sub`). */
export async function exchangeCode(
  configuration: client.Configuration,
  callbackUrl: URL,
  checks: { state: string; nonce: string; codeVerifier: string },
): Promise<Record<string, unknown>> {
  try {
    const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims() as Record<string, unknown> | undefined;
    if (!claims) throw new Error('no ID token');
    const userinfo = configuration.serverMetadata().userinfo_endpoint
      ? await client.fetchUserInfo(configuration, tokens.access_token, String(claims.sub)).catch(() => ({}))
      : {};
    return { ...userinfo, ...claims };
  } catch (error) {
    if (error instanceof SsoResponseInvalidError) throw error;
    if (error instanceof client.AuthorizationResponseError || error instanceof client.ResponseBodyError) throw oidcRefusal(error.error);
    throw oidcRefusal((error as Error).message);
  }
}
