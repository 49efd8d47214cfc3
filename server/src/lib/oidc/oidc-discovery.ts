import * as client from 'openid-client';
import type { OutboundPolicy } from '../outbound/address-policy.ts';
import { guardedFetch, OutboundRefusedError } from '../outbound/guarded-fetch.ts';
import type { HostResolver } from '../outbound/outbound-target.ts';

/** Why an issuer could not be used; each caller turns it into its own catalogued error. */
export class OidcDiscoveryError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

const timeoutSeconds = 15;

/**
 * An OpenID provider's configuration from its discovery document, through openid-client, for a
 * confidential client. Every request of the returned configuration (discovery, token, JWKS, userinfo)
 * goes through the outbound guard, so an issuer cannot point the server at an internal address; ID
 * tokens are checked against the issuer's keys (signature), issuer, audience, expiry and nonce.
 * Shared by the teams' SSO connections and the projects' own OpenID providers.
 */
export async function discoverOidcIssuer(
  issuer: string,
  credentials: { clientId: string; clientSecret: string },
  policy: OutboundPolicy,
  resolve?: HostResolver,
): Promise<client.Configuration> {
  const options: client.DiscoveryRequestOptions = {
    [client.customFetch]: guardedFetch(policy, resolve) as unknown as client.CustomFetch,
    timeout: timeoutSeconds,
    // openid-client skips the signature of an ID token that comes straight from the token endpoint unless told
    // otherwise: checked here against the issuer's published keys, so an altered token is refused.
    execute: [client.enableNonRepudiationChecks, ...(issuer.startsWith('http:') ? [client.allowInsecureRequests] : [])],
  };
  try {
    return await client.discovery(new URL(issuer), credentials.clientId, { client_secret: credentials.clientSecret }, undefined, options);
  } catch (error) {
    throw new OidcDiscoveryError(
      error instanceof OutboundRefusedError || (error as { cause?: unknown }).cause instanceof OutboundRefusedError
        ? 'the issuer is not an allowed address (outbound guard)'
        : `the issuer's discovery document could not be read (${(error as Error).message})`,
    );
  }
}
