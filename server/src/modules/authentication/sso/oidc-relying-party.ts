import { SsoConnectionConfigInvalidError, SsoResponseInvalidError } from '@gatehouse/protocol/errors';
import * as client from 'openid-client';
import type { OutboundPolicy } from '../../../lib/outbound/address-policy.ts';
import { guardedFetch, OutboundRefusedError } from '../../../lib/outbound/guarded-fetch.ts';
import type { HostResolver } from '../../../lib/outbound/outbound-target.ts';
import type { OidcSettings } from './sso.table.ts';

export const oidcRedirectUri = (publicUrl: string, connectionId: string) =>
  `${publicUrl.replace(/\/$/, '')}/api/v1/auth/sso/oidc/${connectionId}/callback`;

const timeoutSeconds = 15;

export const oidcRefusal = (detail: string) =>
  new SsoResponseInvalidError({ protocol: 'oidc', reason: 'oidc_error' }, `The OpenID provider's answer was refused: ${detail}.`);

/**
 * The OpenID provider of a connection, through openid-client: discovery, the authorization URL
 * (code + PKCE S256 + nonce) and the code exchange whose ID token openid-client checks (signature
 * by the provider's JWKS, issuer, audience, expiry, nonce). Every request goes through the outbound guard.
 */
export async function discoverProvider(
  settings: OidcSettings,
  clientSecret: string,
  policy: OutboundPolicy,
  resolve?: HostResolver,
): Promise<client.Configuration> {
  const options: client.DiscoveryRequestOptions = {
    [client.customFetch]: guardedFetch(policy, resolve) as unknown as client.CustomFetch,
    timeout: timeoutSeconds,
  };
  if (settings.issuer.startsWith('http:')) options.execute = [client.allowInsecureRequests];
  try {
    return await client.discovery(new URL(settings.issuer), settings.clientId, { client_secret: clientSecret }, undefined, options);
  } catch (error) {
    const reason =
      error instanceof OutboundRefusedError || (error as { cause?: unknown }).cause instanceof OutboundRefusedError
        ? 'the issuer is not an allowed address (outbound guard)'
        : `the issuer's discovery document could not be read (${(error as Error).message})`;
    throw new SsoConnectionConfigInvalidError({ reason }, `The OpenID connection cannot be used: ${reason}.`);
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
