import { type KeyObject, sign } from 'node:crypto';

const base64url = (json: string) => Buffer.from(json).toString('base64url');

/** The part of a compact JWS that is signed: `base64url(header).base64url(payload)`, from the payload's JSON. */
export const compactSigningInput = (header: { alg: 'ES256'; kid: string }, payloadJson: string): string =>
  `${base64url(JSON.stringify(header))}.${base64url(payloadJson)}`;

/**
 * Signs a compact JWS input with ES256 using node:crypto's asynchronous sign: the work runs on libuv's
 * thread pool (off the event loop) without WebCrypto's per-call overhead. Tokens are verified with jose.
 */
export function signCompactJws(signingInput: string, privateKey: KeyObject): Promise<string> {
  return new Promise((resolve, reject) => {
    sign('sha256', Buffer.from(signingInput), { key: privateKey, dsaEncoding: 'ieee-p1363' }, (error, signature) => {
      if (error) reject(error);
      else resolve(`${signingInput}.${signature.toString('base64url')}`);
    });
  });
}
