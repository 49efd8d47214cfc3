import { SignUpNotEnabledError, SignUpRejectedError, UserEmailAlreadyExistsError } from '@gatehouse/protocol/errors';
import { PlainHttpError } from '../../../lib/plain-http-error.ts';
import type { RequestAuth } from '../../../request-context/request-auth.ts';
import type { EmailService } from '../../messaging/email/index.ts';
import type { Project } from '../../../tenancy/project.ts';
import { assertTrustedUrl } from '../../platform/projects/index.ts';
import type { SignInService, SignInTokens } from '../sign-in/index.ts';
import type { UserRecord } from '../../../tenancy/user-record.ts';
import type { UserService } from '../../identity/users/index.ts';
import { linkWithCode, type VerificationCodeService } from '../verification-codes/index.ts';
import type { BotChallengeFields, BotChallengeResult, BotChallengeService } from '../bot-challenges/index.ts';

/** Codes sent by email sign people in for an hour. */
const signInCodeLifetimeMillis = 60 * 60 * 1000;

/** Magic link / OTP: one emailed code serves as link (45 characters) and as typed OTP (6) + nonce. */
export class OtpAuthService {
  constructor(
    private readonly users: UserService,
    private readonly codes: VerificationCodeService,
    private readonly email: EmailService,
    private readonly signIn: SignInService,
    private readonly botChallenges: BotChallengeService,
  ) {}

  /** An email with no account yet is a sign-up to come: its bot challenge is judged here (a token lives minutes, the code an hour) and kept with the code. */
  async sendCode(
    project: Project,
    email: string,
    callbackUrl: string,
    challenge: BotChallengeFields,
    ip: string,
  ): Promise<{ nonce: string }> {
    assertOtpEnabled(project);
    assertTrustedUrl(project, callbackUrl);
    const signingUp = project.config.auth.botChallenge.mode !== 'off' && !(await this.users.findAuthEmail(project.id, email));
    const botChallenge = signingUp ? await this.botChallenges.judge(project, challenge, ip) : undefined;
    const data = botChallenge ? { email, bot_challenge: botChallenge } : { email };
    const { code, otp, nonce } = await this.codes.issue(project.id, 'otp_sign_in', data, signInCodeLifetimeMillis);
    await this.email.send(project, {
      to: email,
      kind: 'sign_in_code',
      variables: { link: linkWithCode(callbackUrl, code), otp: otp.toUpperCase() },
      // The account's language when the address has one; a sign-up to come gets the project's default.
      language: (await this.users.findByAuthEmail(project.id, email))?.language,
    });
    return { nonce };
  }

  /**
   * Signs the email's user in, or signs up: a new user, or the anonymous user of the request, who
   * keeps its id. An account that never verified this email is not entered by whoever gets the code
   * (someone may have registered the address before its owner): USER_EMAIL_ALREADY_EXISTS.
   */
  async signInWithCode(auth: RequestAuth, code: string, ip: string): Promise<SignInTokens & { is_new_user: boolean }> {
    const { project } = auth;
    assertOtpEnabled(project);
    // Check first; use the code only once the sign-in can go through.
    const { email, bot_challenge: botChallenge } = (await this.codes.redeem(project.id, 'otp_sign_in', code, { peek: true })) as {
      email: string;
      bot_challenge?: BotChallengeResult;
    };
    const owner = await this.users.findAuthEmail(project.id, email);
    if (owner && !owner.is_verified) throw new UserEmailAlreadyExistsError({ email, would_work_if_email_was_verified: true });
    if (!owner && !project.config.auth.allowSignUp) throw new SignUpNotEnabledError();
    if (owner) {
      await this.codes.redeem(project.id, 'otp_sign_in', code);
      return {
        ...(await this.signIn.signInWithMfaCheck(project, await this.users.get(project.id, owner.user_id), { ip })),
        is_new_user: false,
      };
    }
    const write = { primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true, otp_auth_enabled: true };
    const anonymous = auth.user?.record.is_anonymous ? auth.user.record : undefined;
    // A sign-up the rules reject leaves the code usable: the person can retry once the rules change.
    const user: UserRecord = await this.codes.redeemUnless(
      project.id,
      'otp_sign_in',
      code,
      (error) => error instanceof SignUpRejectedError,
      () =>
        anonymous
          ? this.users.update(project, anonymous.id, { ...write, is_anonymous: false }, { method: 'otp', botChallenge, ip })
          : this.users.create(project, write, 'otp', undefined, { botChallenge, ip }),
    );
    return { ...(await this.signIn.signIn(project, user, { ip, byPerson: true })), is_new_user: true };
  }
}

function assertOtpEnabled(project: Project): void {
  if (!project.config.auth.otp.allowSignIn) throw new PlainHttpError(403, 'Magic link sign-in is not enabled for this project.');
}
