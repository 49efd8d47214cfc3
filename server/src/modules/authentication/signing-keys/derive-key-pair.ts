import { type KeyObject, createECDH, createHash, createPrivateKey, createPublicKey, hkdfSync } from 'node:crypto';

export const audiences = ['normal', 'anonymous', 'restricted'] as const;
export type Audience = (typeof audiences)[number];

export type SigningKeyPair = {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicJwk: { kty: 'EC'; crv: 'P-256'; alg: 'ES256'; use: 'sig'; kid: string; x: string; y: string };
};

/** Order of the P-256 group: a private scalar must lie in [1, n-1]. */
const p256Order = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

/**
 * Derives a project's ES256 key pair for one audience from the server secret with HKDF-SHA256.
 * Nothing is stored: the same secret always yields the same keys on every instance.
 */
export function deriveKeyPair(secret: Buffer, projectId: string, audience: Audience): SigningKeyPair {
  for (let attempt = 0; ; attempt++) {
    const scalar = Buffer.from(
      hkdfSync('sha256', secret, 'gatehouse/jwt-signing-key/v1', `${projectId}\u0000${audience}\u0000${attempt}`, 32),
    );
    const value = BigInt(`0x${scalar.toString('hex')}`);
    if (value === 0n || value >= p256Order) continue; // probability ~2^-32; try the next derivation
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(scalar);
    const publicPoint = ecdh.getPublicKey(); // 0x04 || x || y
    const x = publicPoint.subarray(1, 33).toString('base64url');
    const y = publicPoint.subarray(33, 65).toString('base64url');
    const kid = createHash('sha256').update(publicPoint).digest('base64url').slice(0, 22);
    const privateKey = createPrivateKey({ key: { kty: 'EC', crv: 'P-256', x, y, d: scalar.toString('base64url') }, format: 'jwk' });
    const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x, y }, format: 'jwk' });
    return { kid, privateKey, publicKey, publicJwk: { kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid, x, y } };
  }
}
