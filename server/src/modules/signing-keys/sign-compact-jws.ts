import { type KeyObject, sign } from 'node:crypto';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * An ES256 compact JWS signed with node:crypto's asynchronous sign: the work runs on libuv's thread
 * pool (off the event loop) without WebCrypto's per-call overhead. Tokens are verified with jose.
 */
export function signCompactJws(
  header: { alg: 'ES256'; kid: string },
  payload: Record<string, unknown>,
  privateKey: KeyObject,
): Promise<string> {
  const signingInput = `${base64url(header)}.${base64url(payload)}`;
  return new Promise((resolve, reject) => {
    sign('sha256', Buffer.from(signingInput), { key: privateKey, dsaEncoding: 'ieee-p1363' }, (error, signature) => {
      if (error) reject(error);
      else resolve(`${signingInput}.${signature.toString('base64url')}`);
    });
  });
}
