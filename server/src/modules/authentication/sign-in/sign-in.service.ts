import { MultiFactorAuthenticationRequiredError } from '@gatehouse/protocol/errors';
import { Hook } from '../../../kernel/hook.ts';
import type { AccessTokenService } from '../access-tokens/index.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { RefreshSessionRow, SessionService } from '../sessions/index.ts';
import type { UserRecord } from '../../../tenancy/user-record.ts';
import type { VerificationCodeService } from '../verification-codes/index.ts';

export type SignInOptions = {
  ip?: string | null;
  expiresInMillis?: number;
  isImpersonation?: boolean;
  /**
   * A person signing in (or up) on their own device, by any sign-in method: announced on
   * `personSignedIn` (the sign-in alerts remember the device). Not server-created, impersonation or
   * CLI sessions. `signInWithMfaCheck` always sets it.
   */
  byPerson?: boolean;
};

/** An MFA attempt code lets its holder finish the sign-in with a second factor for ten minutes. */
export const mfaAttemptLifetimeMillis = 10 * 60 * 1000;

export type SignInTokens = { access_token: string; refresh_token: string; user_id: string };

/** Every sign-in method ends here: a new session and its first access token. */
export class SignInService {
  constructor(
    private readonly sessions: SessionService,
    private readonly accessTokens: AccessTokenService,
    private readonly codes: VerificationCodeService,
  ) {}

  /** A person signed in on a device (see `SignInOptions.byPerson`), after the session was written. */
  readonly personSignedIn = new Hook<[project: Project, user: UserRecord, session: RefreshSessionRow]>();

  /**
   * The end of every user-facing sign-in (password, OTP, passkey, OAuth): a user with TOTP on gets
   * MULTI_FACTOR_AUTHENTICATION_REQUIRED carrying a fresh attempt code instead of tokens; the
   * sign-in then finishes at POST /auth/mfa/sign-in. Anonymous, server-created and impersonation
   * sessions call `signIn` directly.
   */
  async signInWithMfaCheck(project: Project, user: UserRecord, options: SignInOptions = {}): Promise<SignInTokens> {
    if (user.totp_secret !== null) {
      const { code } = await this.codes.issue(project.id, 'mfa_attempt', { user_id: user.id }, mfaAttemptLifetimeMillis);
      throw new MultiFactorAuthenticationRequiredError({ attempt_code: code });
    }
    return this.signIn(project, user, { ...options, byPerson: true });
  }

  async signIn(project: Project, user: UserRecord, options: SignInOptions = {}): Promise<SignInTokens> {
    const { session, refreshToken } = await this.sessions.create(project.id, user.id, options);
    if (options.byPerson && !options.isImpersonation) await this.personSignedIn.run(project, user, session);
    const accessToken = await this.accessTokens.mint(project, user, session.id);
    return { access_token: accessToken, refresh_token: refreshToken, user_id: user.id };
  }
}
