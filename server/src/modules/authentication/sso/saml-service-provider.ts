import { randomBytes } from 'node:crypto';
import { type CacheProvider, SAML, type Profile, ValidateInResponseTo } from '@node-saml/node-saml';
import { wellFormedRoot } from './strict-xml.ts';
import { SsoResponseInvalidError } from '@gatehouse/protocol/errors';
import type { SamlSettings } from './sso.table.ts';

/** Clock difference tolerated between the IdP and this server. */
const clockSkewMillis = 30_000;

export type SamlEndpoints = { entityId: string; acsUrl: string; metadataUrl: string };

export const samlEndpoints = (publicUrl: string, connectionId: string): SamlEndpoints => {
  const base = `${publicUrl.replace(/\/$/, '')}/api/v1/auth/sso/saml/${connectionId}`;
  return { entityId: `${base}/metadata`, acsUrl: `${base}/acs`, metadataUrl: `${base}/metadata` };
};

export type SamlReason =
  | 'malformed'
  | 'unsigned'
  | 'signature_invalid'
  | 'expired'
  | 'replayed'
  | 'audience'
  | 'unknown_request'
  | 'idp_initiated_not_allowed'
  | 'status'
  | 'no_email';

export const samlRefusal = (reason: SamlReason, detail?: string) =>
  new SsoResponseInvalidError({ protocol: 'saml', reason }, `The SAML response was refused (${reason})${detail ? `: ${detail}` : ''}.`);

/**
 * A response as read before any check: its assertion id (when not encrypted), the request it claims to
 * answer (unverified: only used to end that sign-in on the app's error page), and whether it carries a signature.
 */
export type SamlEnvelope = { assertionId: string | null; inResponseTo: string | null; encrypted: boolean; signed: boolean };

/**
 * Reads the base64 SAML response enough to classify it: well-formed XML whose root is a
 * `samlp:Response`, no DOCTYPE (no entity expansion). Anything else is `malformed`.
 */
export function readEnvelope(samlResponse: string): SamlEnvelope {
  const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
  if (!xml.trimStart().startsWith('<') || /<!DOCTYPE/i.test(xml)) throw samlRefusal('malformed');
  const root = wellFormedRoot(xml);
  if (root?.localName !== 'Response' || root.namespaceURI !== 'urn:oasis:names:tc:SAML:2.0:protocol') throw samlRefusal('malformed');
  const assertion = root.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'Assertion')[0];
  const encrypted = root.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'EncryptedAssertion').length > 0;
  const signed = root.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'Signature').length > 0;
  return { assertionId: assertion?.getAttribute('ID') || null, inResponseTo: root.getAttribute('InResponseTo') || null, encrypted, signed };
}

/**
 * node-saml configured for one connection: signed assertions required (a signed response alone is
 * not enough), the audience is our entity id, every certificate not yet retired is trusted (rotation
 * overlap), `InResponseTo` must name a live flow of the connection when present.
 */
export function serviceProvider(
  settings: SamlSettings,
  endpoints: SamlEndpoints,
  spPrivateKeyPem: string,
  options: { requestId?: string; isLiveRequest?: (requestId: string) => Promise<boolean>; now?: Date } = {},
): SAML {
  const now = options.now ?? new Date();
  const trusted = settings.certificates.filter((certificate) => !certificate.retiresAt || new Date(certificate.retiresAt) > now);
  const requests: CacheProvider = {
    saveAsync: async () => null,
    getAsync: async (key) => ((await options.isLiveRequest?.(key)) ? new Date().toISOString() : null),
    removeAsync: async () => null,
  };
  return new SAML({
    callbackUrl: endpoints.acsUrl,
    entryPoint: settings.idpSsoUrl,
    issuer: endpoints.entityId,
    audience: endpoints.entityId,
    idpIssuer: settings.idpEntityId,
    idpCert: trusted.map((certificate) => certificate.pem),
    decryptionPvk: spPrivateKeyPem,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: clockSkewMillis,
    validateInResponseTo: ValidateInResponseTo.ifPresent,
    requestIdExpirationPeriodMs: 10 * 60 * 1000,
    cacheProvider: requests,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    generateUniqueId: () => options.requestId ?? newRequestId(),
  });
}

/** A SAML request id: an XML NCName (starts with a letter or `_`). */
export const newRequestId = () => `_${randomBytes(20).toString('hex')}`;

/** node-saml's failure (a plain Error) as our reason. */
export function classifySamlFailure(error: unknown, envelope: SamlEnvelope): SsoResponseInvalidError {
  if (error instanceof SsoResponseInvalidError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof Error && error.name === 'SamlStatusError') return samlRefusal('status', message);
  if (/InResponseTo/i.test(message)) return samlRefusal('unknown_request');
  // node-saml finds no subject confirmation whose validity window holds now: an expired assertion.
  if (/expired|not yet valid|too old|subject confirmation/i.test(message)) return samlRefusal('expired');
  if (/audience/i.test(message)) return samlRefusal('audience');
  if (/signature|issuer/i.test(message)) return samlRefusal(envelope.signed || envelope.encrypted ? 'signature_invalid' : 'unsigned');
  return samlRefusal('malformed');
}

export type SamlPerson = { subject: string; email: string | null; name: string | null; groups: string[]; assertionId: string | null };

/** The person of a validated profile, through the connection's attribute mapping. */
export function personOf(profile: Profile, mapping: { email?: string; name?: string; groups?: string }): SamlPerson {
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  const first = (name: string | undefined) => {
    if (!name) return null;
    const value = attributes[name];
    const one = Array.isArray(value) ? value[0] : value;
    return typeof one === 'string' && one.trim() ? one.trim() : null;
  };
  const nameId = typeof profile.nameID === 'string' ? profile.nameID : '';
  const email = first(mapping.email ?? 'email') ?? first('mail') ?? (nameId.includes('@') ? nameId : null);
  const groupsValue = attributes[mapping.groups ?? 'groups'];
  const groups = (Array.isArray(groupsValue) ? groupsValue : groupsValue === undefined ? [] : [groupsValue]).filter(
    (group): group is string => typeof group === 'string',
  );
  const assertion = (profile.getAssertion?.() as { Assertion?: { $?: { ID?: string } } } | undefined)?.Assertion;
  return {
    subject: nameId || email || '',
    email: email?.toLowerCase() ?? null,
    name: first(mapping.name ?? 'name') ?? first('displayName'),
    groups,
    assertionId: assertion?.$?.ID ?? null,
  };
}
