import { createHash, randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

export type CertifiedKeyPair = { privateKeyPem: string; certificatePem: string };

const algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };

/**
 * An RSA key and a self-signed certificate for it (SAML carries keys as certificates): the service
 * provider's key of a connection, which IdPs encrypt assertions to. Valid ten years; SAML peers
 * trust the certificate as configured, not through its dates.
 */
export async function createCertifiedKeyPair(commonName: string, validFrom = new Date()): Promise<CertifiedKeyPair> {
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomBytes(8).toString('hex'),
    name: `CN=${commonName.replace(/[,+="<>#;\\]/g, ' ')}`,
    notBefore: validFrom,
    notAfter: new Date(validFrom.getTime() + 10 * 365 * 24 * 3600 * 1000),
    signingAlgorithm: algorithm,
    keys,
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return { privateKeyPem: toPem(pkcs8, 'PRIVATE KEY'), certificatePem: certificate.toString('pem') };
}

/** A certificate as PEM, from PEM or from the bare base64 of metadata's `X509Certificate`. */
export function certificatePem(base64OrPem: string): string {
  const body = base64OrPem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  return toPem(Buffer.from(body, 'base64'), 'CERTIFICATE');
}

/** SHA-256 of a certificate's DER, hex (how a certificate is named in answers). */
export function certificateFingerprint(pem: string): string {
  const der = Buffer.from(pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, ''), 'base64');
  return createHash('sha256').update(der).digest('hex');
}

/** Whether a PEM certificate parses (metadata may carry anything). */
export function isReadableCertificate(pem: string): boolean {
  try {
    new x509.X509Certificate(pem);
    return true;
  } catch {
    return false;
  }
}

function toPem(der: Buffer, label: string): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
