import { createHash, randomBytes } from 'node:crypto';

export const projectKeyKinds = ['publishable_client_key', 'secret_server_key', 'super_secret_admin_key'] as const;
export type ProjectKeyKind = (typeof projectKeyKinds)[number];

export const projectKeyPrefixes: Record<ProjectKeyKind, string> = {
  publishable_client_key: 'pck_',
  secret_server_key: 'ssk_',
  super_secret_admin_key: 'sak_',
};

const base32Alphabet = 'abcdefghijklmnopqrstuvwxyz234567';

/** `length` lowercase RFC 4648 base32 characters from a CSPRNG (5 bits each, no modulo bias). */
export function randomBase32(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let index = 0; index < length; index++) out += base32Alphabet[(bytes[index] as number) & 31];
  return out;
}

export const generateProjectKey = (kind: ProjectKeyKind): string => projectKeyPrefixes[kind] + randomBase32(45);

/**
 * Keys are 225 random bits, so a plain SHA-256 digest is a safe verifier (no dictionary to attack)
 * and lets a key be found by an index lookup.
 */
export const digestKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export const lastFour = (key: string): string => key.slice(-4);
