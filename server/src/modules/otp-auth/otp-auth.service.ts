import { SignUpNotEnabledError } from '@gatehouse/client/errors';
import { PlainHttpError } from '../../lib/plain-http-error.ts';
import type { EmailService } from '../email/email.service.ts';
import type { Project } from '../projects/project.service.ts';
import { assertTrustedUrl } from '../projects/trusted-urls.ts';
import type { SignInService, SignInTokens } from '../sign-in/sign-in.service.ts';
import type { UserService } from '../users/user.service.ts';
import { linkWithCode, type VerificationCodeService } from '../verification-codes/verification-code.service.ts';

/** Codes sent by email sign people in for an hour. */
const signInCodeLifetimeMillis = 60 * 60 * 1000;

/** Magic link / OTP: one emailed code serves as link (45 characters) and as typed OTP (6) + nonce. */
export class OtpAuthService {
  constructor(
    private readonly users: UserService,
    private readonly codes: VerificationCodeService,
    private readonly email: EmailService,
    private readonly signIn: SignInService,
  ) {}

  async sendCode(project: Project, email: string, callbackUrl: string): Promise<{ nonce: string }> {
    if (!project.config.auth.otp.allowSignIn) throw new PlainHttpError(403, 'Magic link sign-in is not enabled for this project.');
    assertTrustedUrl(project, callbackUrl);
    const { code, otp, nonce } = await this.codes.issue(project.id, 'otp_sign_in', { email }, signInCodeLifetimeMillis);
    await this.email.send(project, {
      to: email,
      kind: 'sign_in_code',
      variables: { link: linkWithCode(callbackUrl, code), otp: otp.toUpperCase() },
    });
    return { nonce };
  }

  /** Signs the email's user in, creating it when new and the project allows sign-up. */
  async signInWithCode(project: Project, code: string, ip: string): Promise<SignInTokens & { is_new_user: boolean }> {
    // Check first, use the code only once the sign-in can go through.
    const { email } = (await this.codes.redeem(project.id, 'otp_sign_in', code, { peek: true })) as { email: string };
    const existing = await this.users.findByAuthEmail(project.id, email);
    if (!existing && !project.config.auth.allowSignUp) throw new SignUpNotEnabledError();
    await this.codes.redeem(project.id, 'otp_sign_in', code);
    if (existing) {
      // The emailed code proves the address: it is verified from now on.
      if (!existing.primary_email_verified && existing.primary_email?.toLowerCase() === email.toLowerCase()) {
        await this.users.update(project, existing.id, { primary_email_verified: true });
      }
      return { ...(await this.signIn.signIn(project, existing, { ip })), is_new_user: false };
    }
    const user = await this.users.create(
      project,
      { primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true, otp_auth_enabled: true },
      'otp',
    );
    return { ...(await this.signIn.signIn(project, user, { ip })), is_new_user: true };
  }
}
