import { PasswordAuthenticationNotEnabledError } from '@gatehouse/protocol/errors';
import type { EmailService } from '../../messaging/email/index.ts';
import { AfterAnswerWork } from '../../../lib/after-answer-work.ts';
import { hashPassword } from '../../../lib/passwords/password-hasher.ts';
import type { Project } from '../../../tenancy/project.ts';
import { assertTrustedUrl } from '../../platform/projects/index.ts';
import type { SessionService } from '../sessions/index.ts';
import type { UserService } from '../../identity/users/index.ts';
import { linkWithCode, type VerificationCodeService } from '../verification-codes/index.ts';

const resetCodeLifetimeMillis = 60 * 60 * 1000;

/** Forgotten passwords: an emailed one-hour code, then a new password that ends every session. */
export class PasswordResetService {
  constructor(
    private readonly users: UserService,
    private readonly sessions: SessionService,
    private readonly codes: VerificationCodeService,
    private readonly email: EmailService,
  ) {}

  /** Reset emails started and not yet sent (see `sendCode`). */
  private readonly emails = new AfterAnswerWork((error) =>
    console.error('password reset email failed', error instanceof Error ? error.message : error),
  );

  /**
   * Says nothing about whether the email exists, not even by its timing: it answers first and works
   * after. Before the answer it only checks what does not depend on the email (the project allows
   * passwords, the callback URL is trusted); finding the user, issuing the code and sending the email
   * happen once the answer is on its way, the same for a known and an unknown email.
   */
  async sendCode(project: Project, email: string, callbackUrl: string): Promise<void> {
    assertPasswordSignIn(project);
    assertTrustedUrl(project, callbackUrl);
    this.emails.start(() => this.sendCodeIfKnown(project, email, callbackUrl));
  }

  /** Resolves once every reset email started so far is sent (tests read the email; shutdown waits for it). */
  async settled(): Promise<void> {
    await this.emails.settled();
  }

  private async sendCodeIfKnown(project: Project, email: string, callbackUrl: string): Promise<void> {
    const user = await this.users.findByAuthEmail(project.id, email);
    if (!user) return;
    const { code } = await this.codes.issue(project.id, 'password_reset', { user_id: user.id }, resetCodeLifetimeMillis);
    await this.email.send(project, {
      to: email,
      kind: 'password_reset',
      variables: { link: linkWithCode(callbackUrl, code) },
      language: user.language,
    });
  }

  async check(project: Project, code: string): Promise<void> {
    await this.codes.redeem(project.id, 'password_reset', code, { peek: true });
  }

  async reset(project: Project, code: string, password: string): Promise<void> {
    assertPasswordSignIn(project);
    // Validate the new password before using the code up, so a weak one can be retried.
    await this.codes.redeem(project.id, 'password_reset', code, { peek: true });
    await this.users.passwords.assertAcceptable(project, password);
    const { user_id: userId } = (await this.codes.redeem(project.id, 'password_reset', code)) as { user_id: string };
    await this.users.replacePasswordHash(project.id, userId, await hashPassword(password));
    await this.sessions.endAllOfUser(project.id, userId);
  }
}

function assertPasswordSignIn(project: Project): void {
  if (!project.config.auth.password.allowSignIn) throw new PasswordAuthenticationNotEnabledError();
}
