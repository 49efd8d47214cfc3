import { randomUUID } from 'node:crypto';
import {
  VerificationCodeAlreadyUsedError,
  VerificationCodeExpiredError,
  VerificationCodeMaxAttemptsReachedError,
  VerificationCodeNotFoundError,
} from '@gatehouse/protocol/errors';
import type { DbHandle } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import { digestSecret } from '../../../lib/digest.ts';
import { randomBase32 } from '../../../lib/random.ts';
import {
  countWrongAttempt,
  type DataMatch,
  deleteCodes,
  findCodeByNonce,
  findUnusedCodeById,
  insertCode,
  listUnusedCodes,
  releaseCode,
  useCode,
  useCodeById,
} from './verification-code.repository.ts';

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
  constructor(private readonly db: DbHandle) {}

  async issue(
    projectId: ProjectId,
    purpose: VerificationPurpose,
    data: Record<string, unknown>,
    lifetimeMillis = defaultCodeLifetimeMillis,
  ): Promise<IssuedCode> {
    const code = randomBase32(codeLength);
    const nonce = code.slice(otpLength);
    const id = randomUUID();
    await insertCode(this.db, {
      id,
      project_id: projectId,
      purpose,
      nonce,
      code_hash: digestSecret(code),
      data: JSON.stringify(data),
      expires_at: new Date(Date.now() + lifetimeMillis),
    });
    return { id, code, otp: code.slice(0, otpLength), nonce };
  }

  /** Checks a code and, unless `peek`, uses it up. Returns the data it was issued with. */
  async redeem(
    projectId: ProjectId,
    purpose: VerificationPurpose,
    submitted: string,
    options: { peek?: boolean } = {},
  ): Promise<Record<string, unknown>> {
    return (await this.redeemRow(projectId, purpose, submitted, options)).data;
  }

  /** `redeem`, answering the code's row (its id lets `redeemUnless` release it without reading it again). */
  private async redeemRow(projectId: ProjectId, purpose: VerificationPurpose, submitted: string, options: { peek?: boolean }) {
    const code = submitted.trim().toLowerCase();
    if (code.length !== codeLength) throw new VerificationCodeNotFoundError();
    const row = await findCodeByNonce(this.db, projectId, purpose, code.slice(otpLength));
    if (!row) throw new VerificationCodeNotFoundError();
    if (row.attempts >= maxAttempts) throw new VerificationCodeMaxAttemptsReachedError();
    if (digestSecret(code) !== row.code_hash) {
      const attempts = await countWrongAttempt(this.db, projectId, row.id);
      if (attempts >= maxAttempts) throw new VerificationCodeMaxAttemptsReachedError();
      throw new VerificationCodeNotFoundError();
    }
    if (row.used_at) throw new VerificationCodeAlreadyUsedError();
    if (row.expires_at.getTime() <= Date.now()) throw new VerificationCodeExpiredError();
    if (!options.peek) {
      if (!(await useCode(this.db, projectId, row.id, new Date()))) throw new VerificationCodeAlreadyUsedError();
    }
    return row;
  }

  /**
   * Runs `work` with the code used up, and makes it usable again when `work` fails with an error
   * `keepUsable` picks (a sign-up the rules rejected: the person may retry once the rules change).
   * Concurrent callers still see one use: the others are refused while the first holds it.
   */
  async redeemUnless<T>(
    projectId: ProjectId,
    purpose: VerificationPurpose,
    submitted: string,
    keepUsable: (error: unknown) => boolean,
    work: (data: Record<string, unknown>) => Promise<T>,
  ): Promise<T> {
    const row = await this.redeemRow(projectId, purpose, submitted, {});
    try {
      return await work(row.data);
    } catch (error) {
      if (keepUsable(error)) await releaseCode(this.db, projectId, row.id);
      throw error;
    }
  }

  /** The live (unused, unexpired) codes of a purpose whose data matches, newest first. */
  listLive(projectId: ProjectId, purpose: VerificationPurpose, match: DataMatch) {
    return listUnusedCodes(this.db, projectId, purpose, match, new Date());
  }

  /** The live (unused, unexpired) code of a purpose with this id, if any. */
  findLive(projectId: ProjectId, purpose: VerificationPurpose, id: string) {
    return findUnusedCodeById(this.db, projectId, purpose, id, new Date());
  }

  /** Uses up a code by its id (revoking it); false when no unused one matches. */
  revoke(projectId: ProjectId, purpose: VerificationPurpose, id: string, match: DataMatch): Promise<boolean> {
    return useCodeById(this.db, projectId, purpose, id, match, new Date());
  }

  /** Deletes every code of a purpose whose data matches, in the caller's transaction. */
  deleteAll(trx: DbHandle, projectId: ProjectId, purpose: VerificationPurpose, match: DataMatch): Promise<void> {
    return deleteCodes(trx, projectId, purpose, match);
  }
}

/** `callbackUrl` with `?code=…` appended (keeping its own query). */
export function linkWithCode(callbackUrl: string, code: string): string {
  const url = new URL(callbackUrl);
  url.searchParams.set('code', code);
  return url.toString();
}
