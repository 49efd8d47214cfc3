import { SsoConnectionConfigInvalidError } from '@gatehouse/protocol/errors';
import { certificatePem, isReadableCertificate } from './key-pair.ts';
import { wellFormedRoot } from './strict-xml.ts';

const metadataNs = 'urn:oasis:names:tc:SAML:2.0:metadata';
const signatureNs = 'http://www.w3.org/2000/09/xmldsig#';
const redirectBinding = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

export type IdpMetadata = { entityId: string; ssoUrl: string; signingCertificates: string[] };

const invalid = (reason: string) => new SsoConnectionConfigInvalidError({ reason }, `The IdP metadata cannot be used: ${reason}.`);

/**
 * The parts of an IdP's SAML metadata a connection needs: its entity id, the SSO URL of the
 * HTTP-Redirect binding (AuthnRequests go out by redirect) and its signing certificates. Anything
 * unreadable is SSO_CONNECTION_CONFIG_INVALID naming what is missing; a DOCTYPE is refused (no entity expansion).
 */
export function readIdpMetadata(xml: string): IdpMetadata {
  if (/<!DOCTYPE/i.test(xml)) throw invalid('a DOCTYPE is not accepted');
  const root = wellFormedRoot(xml);
  if (!root) throw invalid('not well-formed XML');
  const entity =
    root.localName === 'EntityDescriptor' && root.namespaceURI === metadataNs
      ? root
      : (root.getElementsByTagNameNS(metadataNs, 'EntityDescriptor')[0] ?? null);
  if (!entity) throw invalid('no EntityDescriptor');
  const entityId = entity.getAttribute('entityID') ?? '';
  if (!entityId) throw invalid('no entityID');
  const idp = entity.getElementsByTagNameNS(metadataNs, 'IDPSSODescriptor')[0];
  if (!idp) throw invalid('no IDPSSODescriptor');
  const services = Array.from(idp.getElementsByTagNameNS(metadataNs, 'SingleSignOnService'));
  const service = services.find((candidate) => candidate.getAttribute('Binding') === redirectBinding);
  const ssoUrl = service?.getAttribute('Location') ?? '';
  if (!/^https?:\/\//.test(ssoUrl)) throw invalid('no SingleSignOnService with the HTTP-Redirect binding and an http(s) Location');
  const signingCertificates = Array.from(idp.getElementsByTagNameNS(metadataNs, 'KeyDescriptor'))
    .filter((key) => (key.getAttribute('use') ?? 'signing') === 'signing')
    .flatMap((key) => Array.from(key.getElementsByTagNameNS(signatureNs, 'X509Certificate')))
    .map((node) => certificatePem(node.textContent ?? ''))
    .filter(isReadableCertificate);
  if (signingCertificates.length === 0) throw invalid('no readable signing certificate (KeyDescriptor X509Certificate)');
  return { entityId, ssoUrl, signingCertificates: [...new Set(signingCertificates)] };
}
