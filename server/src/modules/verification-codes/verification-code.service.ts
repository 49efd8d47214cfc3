import { randomUUID } from 'node:crypto';
import {
  VerificationCodeAlreadyUsedError,
  VerificationCodeExpiredError,
  VerificationCodeMaxAttemptsReachedError,
  VerificationCodeNotFoundError,
} from '@gatehouse/protocol/errors';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { digestSecret } from '../../lib/digest.ts';
import { randomBase32 } from '../../lib/random.ts';

export type VerificationPurpose =
  | 'contact_channel_verification'
  | 'password_reset'
  | 'otp_sign_in'
  | 'team_invitation'
  | 'mfa_attempt'
  | 'passkey_registration'
  | 'passkey_authentication';

export const codeLength = 45;
/** The first characters of a code are the OTP a person types; the rest is the nonce the client keeps. */
export const otpLength = 6;
export const maxAttempts = 20;
export const defaultCodeLifetimeMillis = 7 * 24 * 60 * 60 * 1000;

/** `id` names the row (invitations are listed and revoked by it). */
export type IssuedCode = { id: string; code: string; otp: string; nonce: string };

/**
 * Verification codes: 45 lowercase base32 characters, stored as a digest and found by their nonce
 * (the last 39), so a wrong OTP for a known nonce counts as an attempt; 20 wrong attempts kill it.
 */
export class VerificationCodeService {
  constructor(private readonly db: Kysely<Database>) {}

  async issue(
    projectId: string,
    purpose: VerificationPurpose,
    data: Record<string, unknown>,
    lifetimeMillis = defaultCodeLifetimeMillis,
  ): Promise<IssuedCode> {
    const code = randomBase32(codeLength);
    const nonce = code.slice(otpLength);
    const id = randomUUID();
    await this.db
      .insertInto('verification_code')
      .values({
        id,
        project_id: projectId,
        purpose,
        nonce,
        code_hash: digestSecret(code),
        data: JSON.stringify(data),
        expires_at: new Date(Date.now() + lifetimeMillis),
      })
      .execute();
    return { id, code, otp: code.slice(0, otpLength), nonce };
  }

  /** Checks a code and, unless `peek`, uses it up. Returns the data it was issued with. */
  async redeem(
    projectId: string,
    purpose: VerificationPurpose,
    submitted: string,
    options: { peek?: boolean } = {},
  ): Promise<Record<string, unknown>> {
    const code = submitted.trim().toLowerCase();
    if (code.length !== codeLength) throw new VerificationCodeNotFoundError();
    const row = await this.db
      .selectFrom('verification_code')
      .selectAll()
      .where('nonce', '=', code.slice(otpLength))
      .where('project_id', '=', projectId)
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    if (!row) throw new VerificationCodeNotFoundError();
    if (row.attempts >= maxAttempts) throw new VerificationCodeMaxAttemptsReachedError();
    if (digestSecret(code) !== row.code_hash) {
      const { attempts } = await this.db
        .updateTable('verification_code')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id', '=', row.id)
        .returning('attempts')
        .executeTakeFirstOrThrow();
      if (attempts >= maxAttempts) throw new VerificationCodeMaxAttemptsReachedError();
      throw new VerificationCodeNotFoundError();
    }
    if (row.used_at) throw new VerificationCodeAlreadyUsedError();
    if (row.expires_at.getTime() <= Date.now()) throw new VerificationCodeExpiredError();
    if (!options.peek) {
      const used = await this.db
        .updateTable('verification_code')
        .set({ used_at: new Date() })
        .where('id', '=', row.id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (used.numUpdatedRows === 0n) throw new VerificationCodeAlreadyUsedError();
    }
    return row.data;
  }
}

/** `callbackUrl` with `?code=…` appended (keeping its own query). */
export function linkWithCode(callbackUrl: string, code: string): string {
  const url = new URL(callbackUrl);
  url.searchParams.set('code', code);
  return url.toString();
}
