import { SsoConnectionConfigInvalidError, SsoIdpMetadataUnavailableError } from '@gatehouse/protocol/errors';
import type { OutboundPolicy } from '../../../lib/outbound/address-policy.ts';
import { guardedFetch, OutboundAnswerTooLargeError, OutboundRefusedError } from '../../../lib/outbound/guarded-fetch.ts';
import type { HostResolver } from '../../../lib/outbound/outbound-target.ts';
import { type IdpMetadata, readIdpMetadata } from './idp-metadata.ts';

/** As much as the XML field takes (the spec's `idp_metadata_xml` maxLength). */
export const maxMetadataBytes = 200_000;
export const defaultMetadataTimeoutMillis = 10_000;

type Reason = 'address_not_allowed' | 'unreachable' | 'timeout' | 'too_large' | 'not_saml_metadata';

const unavailable = (reason: Reason, detail?: string) =>
  new SsoIdpMetadataUnavailableError(
    { reason, ...(detail ? { detail } : {}) },
    `The identity provider's metadata URL could not be used (${reason.replaceAll('_', ' ')}${detail ? `: ${detail}` : ''}).`,
  );

/** Whether an error (or the error it wraps) is one of these. */
const isOrWraps = (error: unknown, type: abstract new (...args: never[]) => Error) =>
  error instanceof type || (error as { cause?: unknown } | null)?.cause instanceof type;

/**
 * An IdP's metadata read from its URL, once, when a connection is saved: through the outbound guard (the
 * host's addresses judged by the project's policy, the socket pinned to them, no redirects), cut off past
 * `maxMetadataBytes` and after `timeoutMillis`. Each way it fails is SSO_IDP_METADATA_UNAVAILABLE naming why.
 */
export async function fetchIdpMetadata(
  url: string,
  policy: OutboundPolicy,
  options: { resolve?: HostResolver; timeoutMillis?: number } = {},
): Promise<IdpMetadata> {
  const fetchGuarded = guardedFetch(policy, options.resolve, { maxBodyBytes: maxMetadataBytes });
  let xml: string;
  try {
    const response = await fetchGuarded(url, {
      headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' },
      signal: AbortSignal.timeout(options.timeoutMillis ?? defaultMetadataTimeoutMillis),
    });
    if (response.status !== 200) throw unavailable('unreachable', `HTTP status ${response.status}`);
    xml = await response.text();
  } catch (error) {
    if (error instanceof SsoIdpMetadataUnavailableError) throw error;
    if (isOrWraps(error, OutboundRefusedError)) throw unavailable('address_not_allowed');
    if (isOrWraps(error, OutboundAnswerTooLargeError)) throw unavailable('too_large', `more than ${maxMetadataBytes} bytes`);
    const name = (error as Error | undefined)?.name;
    if (name === 'AbortError' || name === 'TimeoutError') throw unavailable('timeout');
    throw unavailable('unreachable');
  }
  try {
    return readIdpMetadata(xml);
  } catch (error) {
    if (error instanceof SsoConnectionConfigInvalidError)
      throw unavailable('not_saml_metadata', (error.details as { reason?: string } | undefined)?.reason);
    throw error;
  }
}
