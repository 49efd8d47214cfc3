// escape-html (& < > " ' as entities) is XML-safe too: the server's one escaping serves the IdP's XML.
import escapeHtml from 'escape-html';
import { createPublicKey, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';
import { type CertifiedKeyPair, createCertifiedKeyPair } from '@gatehouse/server/src/modules/authentication/sso/key-pair.ts';

type XmlEncryption = {
  encrypt: (content: string, options: Record<string, unknown>, callback: (error: Error | null, result: string) => void) => void;
};
const xmlenc = createRequire(import.meta.url)('xml-encryption') as XmlEncryption;

const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');
const pemBody = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');

export type AssertionOptions = {
  acsUrl: string;
  audience: string;
  email: string;
  nameId?: string;
  name?: string;
  groups?: string[];
  inResponseTo?: string;
  /** Validity window; default: from a minute ago to five minutes from now. */
  notBefore?: Date;
  notOnOrAfter?: Date;
  /** Sign the assertion (default true). */
  sign?: boolean;
  /** Encrypt the signed assertion to this SP certificate (PEM). */
  encryptTo?: string;
  /** Signs with this key pair instead of the IdP's current one (rotation tests). */
  signWith?: CertifiedKeyPair;
};

/**
 * A SAML 2.0 identity provider for tests: its own RSA key and certificate, metadata, and signed
 * (optionally encrypted) responses built as real IdPs build them (xml-crypto's enveloped
 * exclusive-c14n RSA-SHA256 signature over the assertion, xml-encryption's AES-256-GCM + RSA-OAEP).
 */
export class TestSamlIdp {
  private constructor(
    readonly entityId: string,
    readonly ssoUrl: string,
    public keyPair: CertifiedKeyPair,
  ) {}

  static async create(ssoUrl = 'https://idp.acme.test/sso'): Promise<TestSamlIdp> {
    return new TestSamlIdp(`https://idp.acme.test/${randomBytes(6).toString('hex')}`, ssoUrl, await createCertifiedKeyPair('Test IdP'));
  }

  /** A new signing key (the old one is returned for rotation tests). */
  async rotate(): Promise<CertifiedKeyPair> {
    const previous = this.keyPair;
    this.keyPair = await createCertifiedKeyPair('Test IdP (rotated)');
    return previous;
  }

  metadata(certificates: string[] = [this.keyPair.certificatePem]): string {
    const keys = certificates
      .map(
        (pem) =>
          `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${pemBody(pem)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`,
      )
      .join('');
    return `<?xml version="1.0"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${escapeHtml(this.entityId)}"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${keys}<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${escapeHtml(this.ssoUrl)}"/></md:IDPSSODescriptor></md:EntityDescriptor>`;
  }

  /** The request id and ACS URL of an HTTP-Redirect AuthnRequest URL's `SAMLRequest`. */
  static readRequest(url: string): { id: string; acsUrl: string; relayState: string | null } {
    const parsed = new URL(url);
    const xml = inflateRawSync(Buffer.from(parsed.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
    const id = /\sID="([^"]+)"/.exec(xml)?.[1] ?? '';
    const acsUrl = /AssertionConsumerServiceURL="([^"]+)"/.exec(xml)?.[1] ?? '';
    return { id, acsUrl: acsUrl.replace(/&amp;/g, '&'), relayState: parsed.searchParams.get('RelayState') };
  }

  /** A base64 SAML Response as the HTTP-POST binding carries it. */
  async response(options: AssertionOptions): Promise<string> {
    const now = new Date();
    const notBefore = options.notBefore ?? new Date(now.getTime() - 60_000);
    const notOnOrAfter = options.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000);
    const assertionId = `_a${randomBytes(16).toString('hex')}`;
    const inResponseTo = options.inResponseTo ? ` InResponseTo="${escapeHtml(options.inResponseTo)}"` : '';
    const attribute = (name: string, values: string[]) =>
      `<saml:Attribute Name="${name}">${values.map((value) => `<saml:AttributeValue>${escapeHtml(value)}</saml:AttributeValue>`).join('')}</saml:Attribute>`;
    const attributes = [
      attribute('email', [options.email]),
      ...(options.name ? [attribute('name', [options.name])] : []),
      ...(options.groups ? [attribute('groups', options.groups)] : []),
    ].join('');
    let assertion = `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${iso(now)}"><saml:Issuer>${escapeHtml(this.entityId)}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${escapeHtml(options.nameId ?? options.email)}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${iso(notOnOrAfter)}" Recipient="${escapeHtml(options.acsUrl)}"${inResponseTo}/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(notOnOrAfter)}"><saml:AudienceRestriction><saml:Audience>${escapeHtml(options.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="${assertionId}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement>${attributes}</saml:AttributeStatement></saml:Assertion>`;
    if (options.sign ?? true) assertion = this.sign(assertion, options.signWith ?? this.keyPair);
    const body = options.encryptTo
      ? `<saml:EncryptedAssertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${await encrypt(assertion, options.encryptTo)}</saml:EncryptedAssertion>`
      : assertion;
    const response = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${iso(now)}" Destination="${escapeHtml(options.acsUrl)}"${inResponseTo}><saml:Issuer>${escapeHtml(this.entityId)}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${body}</samlp:Response>`;
    return Buffer.from(response, 'utf8').toString('base64');
  }

  private sign(assertion: string, keyPair: CertifiedKeyPair): string {
    const signature = new SignedXml({
      privateKey: keyPair.privateKeyPem,
      publicCert: keyPair.certificatePem,
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    });
    signature.addReference({
      xpath: "//*[local-name(.)='Assertion']",
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
    signature.computeSignature(assertion, { location: { reference: "//*[local-name(.)='Issuer']", action: 'after' } });
    return signature.getSignedXml();
  }
}

function encrypt(xml: string, certificatePem: string): Promise<string> {
  const publicKey = createPublicKey(certificatePem).export({ type: 'spki', format: 'pem' }).toString();
  return new Promise((resolve, reject) =>
    xmlenc.encrypt(
      xml,
      {
        rsa_pub: publicKey,
        pem: certificatePem,
        encryptionAlgorithm: 'http://www.w3.org/2009/xmlenc11#aes256-gcm',
        keyEncryptionAlgorithm: 'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p',
        disallowEncryptionWithInsecureAlgorithm: true,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
}
