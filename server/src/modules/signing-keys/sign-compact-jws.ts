import { type KeyObject, sign } from 'node:crypto';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * An ES256 compact JWS signed with node:crypto directly: about five times cheaper than WebCrypto's
 * asynchronous job, and refresh signs one per call. (Tokens are verified with jose everywhere.)
 */
export function signCompactJws(header: { alg: 'ES256'; kid: string }, payload: Record<string, unknown>, privateKey: KeyObject): string {
  const signingInput = `${base64url(header)}.${base64url(payload)}`;
  const signature = sign('sha256', Buffer.from(signingInput), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${signingInput}.${signature.toString('base64url')}`;
}
