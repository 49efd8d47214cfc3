import { randomBytes } from 'node:crypto';

const base32Alphabet = 'abcdefghijklmnopqrstuvwxyz234567';

/** `length` lowercase RFC 4648 base32 characters from a CSPRNG (5 bits each, no modulo bias). */
export function randomBase32(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let index = 0; index < length; index++) out += base32Alphabet[(bytes[index] as number) & 31];
  return out;
}
