import { InvalidTotpCodeError, RateLimitedError, TotpNotEnabledError, VerificationCodeNotFoundError } from '@gatehouse/protocol/errors';
import type { DbHandle } from '../../../db/handle.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { SignInService, SignInTokens } from '../sign-in/index.ts';
import type { UserRecord } from '../../../tenancy/user-record.ts';
import type { UserService } from '../../identity/users/index.ts';
import type { VerificationCodeService } from '../verification-codes/index.ts';
import {
  acceptTotpStep,
  clearFailures,
  findFailureWindow,
  recordFailure,
  replaceRecoveryCodes,
  resetMfaState,
  useRecoveryCode,
} from './mfa.repository.ts';
import { generateRecoveryCode, normalizeRecoveryCode, recoveryCodeCount, recoveryCodeDigest } from './recovery-codes.ts';
import { looksLikeTotp, matchTotpStep } from '../../../lib/totp.ts';

/** Wrong second factors a user may send per window before every attempt is refused until it ends. */
export const maxFailedAttempts = 5;
export const failureWindowMillis = 15 * 60 * 1000;

/** The second factor of a sign-in (TOTP or a recovery code) and the user's recovery codes. */
export class MfaService {
  constructor(
    private readonly db: DbHandle,
    private readonly users: UserService,
    private readonly codes: VerificationCodeService,
    private readonly signIn: SignInService,
  ) {}

  /** Finishes the sign-in an attempt code stands for; the attempt code is used up only on success. */
  async signInWithSecondFactor(project: Project, input: { totp: string; code: string }, ip: string | null): Promise<SignInTokens> {
    const { user_id: userId } = (await this.codes.redeem(project.id, 'mfa_attempt', input.code, { peek: true })) as { user_id: string };
    const user = await this.users.find(project.id, userId);
    if (!user) throw new VerificationCodeNotFoundError();
    await this.assertNotLockedOut(project, user.id);
    if (!(await this.checkSecondFactor(project, user, input.totp))) {
      await recordFailure(this.db, project.id, user.id, new Date(), failureWindowMillis);
      throw new InvalidTotpCodeError();
    }
    await this.codes.redeem(project.id, 'mfa_attempt', input.code);
    await clearFailures(this.db, project.id, user.id);
    return this.signIn.signIn(project, user, { ip, byPerson: true });
  }

  /** Forgets the recovery codes and the replay guard of a TOTP secret that changed (in the changing transaction). */
  async reset(trx: DbHandle, project: Project, userId: string): Promise<void> {
    await resetMfaState(trx, project.id, userId);
  }

  /** Ten new recovery codes replacing the earlier ones; only their digests are kept. */
  async createRecoveryCodes(project: Project, user: UserRecord): Promise<string[]> {
    if (user.totp_secret === null) throw new TotpNotEnabledError();
    const codes = Array.from({ length: recoveryCodeCount }, generateRecoveryCode);
    const digests = codes.map((code) => recoveryCodeDigest(user.id, normalizeRecoveryCode(code) as string));
    await replaceRecoveryCodes(this.db, project.id, user.id, digests);
    return codes;
  }

  /** A TOTP of a step later than the last accepted one, or an unused recovery code (used up here). */
  private async checkSecondFactor(project: Project, user: UserRecord, input: string): Promise<boolean> {
    if (user.totp_secret === null) return false;
    if (looksLikeTotp(input)) {
      const step = await matchTotpStep(user.totp_secret, input);
      return step !== null && (await acceptTotpStep(this.db, project.id, user.id, step));
    }
    const recoveryCode = normalizeRecoveryCode(input);
    return recoveryCode !== undefined && (await useRecoveryCode(this.db, project.id, user.id, recoveryCodeDigest(user.id, recoveryCode)));
  }

  private async assertNotLockedOut(project: Project, userId: string): Promise<void> {
    const window = await findFailureWindow(this.db, project.id, userId);
    if (!window?.failures_since || window.failed_attempts < maxFailedAttempts) return;
    const remainingMillis = window.failures_since.getTime() + failureWindowMillis - Date.now();
    if (remainingMillis > 0) {
      // 429 while the user is locked out; the error reply adds Retry-After.
      const seconds = Math.max(1, Math.ceil(remainingMillis / 1000));
      throw new RateLimitedError({ retry_after_seconds: seconds }, `Too many wrong codes. Try again in ${seconds} seconds.`);
    }
  }
}
