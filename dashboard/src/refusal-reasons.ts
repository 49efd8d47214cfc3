import { KnownError } from '@gatehouse/protocol/errors';
import type { Translate } from './i18n/dashboard-i18n.ts';

/**
 * `OIDC_PROVIDER_CONFIG_INVALID`'s `details.reason` is a sentence (Stack-style English on the wire); each kind
 * of refusal is recognised by how its sentence starts (server/src/modules/authentication/oauth/oidc-provider-config.ts
 * and lib/oidc/oidc-discovery.ts), so the owner reads it in their language. An unknown one is shown as sent.
 */
const oidcReasons: Array<[prefix: string, words: (t: Translate) => string]> = [
  ['the key must be', (t) => t('refusal.oidc.key')],
  ['issuer must be', (t) => t('refusal.oidc.issuer')],
  ['displayName must be', (t) => t('refusal.oidc.displayName')],
  ['clientId and clientSecret', (t) => t('refusal.oidc.clientKeys')],
  ['scopes must be', (t) => t('refusal.oidc.scopes')],
  ['the issuer is not an allowed address', (t) => t('refusal.oidc.addressNotAllowed')],
  ["the issuer's discovery document could not be read", (t) => t('refusal.oidc.discovery')],
];

/** `SSO_IDP_METADATA_UNAVAILABLE`'s reasons, an enum in the spec. */
const metadataReasons: Record<string, (t: Translate) => string> = {
  address_not_allowed: (t) => t('refusal.metadata.addressNotAllowed'),
  unreachable: (t) => t('refusal.metadata.unreachable'),
  timeout: (t) => t('refusal.metadata.timeout'),
  too_large: (t) => t('refusal.metadata.tooLarge'),
  not_saml_metadata: (t) => t('refusal.metadata.notSamlMetadata'),
};

/** A catalogued refusal: a KnownError from the generated client, or any error carrying the body's code and details (the setup page's). */
type Coded = { code: string; details?: unknown };
const codedOf = (error: unknown): Coded | undefined =>
  error instanceof KnownError || (error instanceof Error && typeof (error as Partial<Coded>).code === 'string')
    ? (error as unknown as Coded)
    : undefined;

/** The refusal's reason in the active language for the errors that carry one the owner can act on; else undefined. */
export function translatedRefusal(failure: unknown, t: Translate): string | undefined {
  const error = codedOf(failure);
  const reason = (error?.details as { reason?: unknown } | undefined)?.reason;
  if (!error || typeof reason !== 'string') return undefined;
  if (error.code === 'OIDC_PROVIDER_CONFIG_INVALID') {
    const known = oidcReasons.find(([prefix]) => reason.startsWith(prefix));
    return t('refusal.oidc', { reason: known ? known[1](t) : reason });
  }
  if (error.code === 'SSO_IDP_METADATA_UNAVAILABLE') {
    const words = metadataReasons[reason];
    // `detail` is technical (e.g. "HTTP status 404"), kept as the server wrote it.
    const detail = (error.details as { detail?: unknown }).detail;
    const text = t('refusal.metadata', { reason: words ? words(t) : reason });
    return typeof detail === 'string' && detail ? `${text} (${detail})` : text;
  }
  return undefined;
}
