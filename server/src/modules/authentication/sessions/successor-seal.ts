import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/*
 * A rotation's new refresh token, kept with the replaced one so that every concurrent refresh of the
 * replaced token answers the same new token. It is sealed (AES-256-GCM) under a key derived from the
 * replaced token, which the database never holds (only its SHA-256 digest, of another input): a
 * reader of the database learns nothing, a holder of the replaced token learns what it would get anyway.
 */
const keyOf = (replacedToken: string) => createHash('sha256').update(`gatehouse refresh successor\0${replacedToken}`).digest();

export function sealSuccessor(replacedToken: string, successor: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(replacedToken), iv);
  const sealed = Buffer.concat([cipher.update(successor, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
}

/** The successor, or undefined when `sealed` was not sealed under this token. */
export function unsealSuccessor(replacedToken: string, sealed: Buffer): string | undefined {
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(replacedToken), sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(12, 28));
    return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
