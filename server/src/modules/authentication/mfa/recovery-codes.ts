import { digestSecret } from '../../../lib/digest.ts';
import { randomBase32 } from '../../../lib/random.ts';

export const recoveryCodeCount = 10;
const recoveryCodeLength = 16;

/** 16 base32 characters (80 random bits) shown in groups of four: `abcd-efgh-ijkl-mnop`. */
export function generateRecoveryCode(): string {
  return (randomBase32(recoveryCodeLength).match(/.{4}/g) as string[]).join('-');
}

/** What a person typed, without dashes, spaces and case; undefined when it cannot be a recovery code. */
export function normalizeRecoveryCode(input: string): string | undefined {
  const code = input.toLowerCase().replace(/[\s-]/g, '');
  return code.length === recoveryCodeLength && /^[a-z2-7]+$/.test(code) ? code : undefined;
}

/** Salted with the user id, so one digest never stands for the same code of two users. */
export const recoveryCodeDigest = (userId: string, normalizedCode: string): string => digestSecret(`${userId}:${normalizedCode}`);
