import {
  EmailPasswordMismatchError,
  PasswordAuthenticationNotEnabledError,
  PasswordConfirmationMismatchError,
  SignUpNotEnabledError,
  UserDoesNotHavePasswordError,
  UserEmailAlreadyExistsError,
} from '@gatehouse/protocol/errors';
import { PlainHttpError } from '../../../lib/plain-http-error.ts';
import type { RequestAuth } from '../../../request-context/request-auth.ts';
import { assertPasswordLength } from '../../../lib/passwords/password-policy.ts';
import { hashPassword, needsRehash, verifyAgainstDummy, verifyPassword } from '../../../lib/passwords/password-hasher.ts';
import type { Project } from '../../../tenancy/project.ts';
import { assertTrustedUrl } from '../../platform/projects/index.ts';
import type { SessionService } from '../sessions/index.ts';
import type { SignInService, SignInTokens } from '../sign-in/index.ts';
import type { UserRecord } from '../../../tenancy/user-record.ts';
import type { UserService } from '../../identity/users/index.ts';
import type { AuditLog } from '../../administration/audit-log/index.ts';
import type { BotChallengeFields, BotChallengeService } from '../bot-challenges/index.ts';

/** Sends the verification email of a new address (wired to the contact-channel service). */
export type VerificationSender = (project: Project, user: UserRecord, callbackUrl: string) => Promise<void>;

/** Password sign-up, sign-in and changes. */
export class PasswordAuthService {
  constructor(
    private readonly users: UserService,
    private readonly sessions: SessionService,
    private readonly signIn: SignInService,
    private readonly sendVerification: VerificationSender,
    private readonly botChallenges: BotChallengeService,
    private readonly auditLog: AuditLog,
  ) {}

  async signUp(
    auth: RequestAuth,
    input: { email: string; password: string; verification_callback_url?: string } & BotChallengeFields,
    ip: string,
  ): Promise<SignInTokens> {
    const { project } = auth;
    assertPasswordSignIn(project);
    if (!project.config.auth.allowSignUp) throw new SignUpNotEnabledError();
    if (input.verification_callback_url) assertTrustedUrl(project, input.verification_callback_url);
    // Length first (cheap); the whole policy, breached check included, runs once where the user is written.
    assertPasswordLength(input.password, project.config.auth.passwordPolicy);
    if (await this.users.findByAuthEmail(project.id, input.email)) {
      throw new UserEmailAlreadyExistsError({ email: input.email, would_work_if_email_was_verified: false });
    }
    // After the cheap refusals (a provider's token is single-use), before anything is written.
    const botChallenge = await this.botChallenges.judge(project, input, ip);
    const write = { primary_email: input.email, primary_email_auth_enabled: true, password: input.password };
    // An anonymous user who signs up keeps its id and everything attached to it.
    const anonymous = auth.user?.record.is_anonymous ? auth.user.record : undefined;
    const user = anonymous
      ? await this.users.update(project, anonymous.id, { ...write, is_anonymous: false }, { method: 'password', botChallenge, ip })
      : await this.users.create(project, write, 'password', undefined, { botChallenge, ip });
    if (input.verification_callback_url) await this.sendVerification(project, user, input.verification_callback_url);
    return this.signIn.signIn(project, user, { ip, byPerson: true });
  }

  /** An unknown email costs a full verification too, and answers the same error. */
  async signInWithPassword(project: Project, input: { email: string; password: string }, ip: string): Promise<SignInTokens> {
    assertPasswordSignIn(project);
    const user = await this.users.findByAuthEmail(project.id, input.email);
    const valid = user?.password_hash ? await verifyPassword(user.password_hash, input.password) : await verifyAgainstDummy(input.password);
    if (!user || !valid) {
      // The attempted email is recorded (it is what an administrator looks for), never the password.
      await this.auditLog.recordAlone(project.id, {
        action: 'auth.sign_in_failed',
        target: user ? { type: 'user', id: user.id } : null,
        details: { method: 'password', email: input.email.slice(0, 320) },
      });
      throw new EmailPasswordMismatchError();
    }
    if (user.password_hash && needsRehash(user.password_hash))
      await this.users.replacePasswordHash(project.id, user.id, await hashPassword(input.password));
    return this.signIn.signInWithMfaCheck(project, user, { ip });
  }

  /** Changes the password and ends every other session; the one of the refresh-token header stays. */
  async updatePassword(auth: RequestAuth, input: { old_password: string; new_password: string }): Promise<void> {
    assertPasswordSignIn(auth.project);
    const user = auth.user?.record as UserRecord;
    if (!user.password_hash) throw new UserDoesNotHavePasswordError();
    if (!(await verifyPassword(user.password_hash, input.old_password))) throw new PasswordConfirmationMismatchError();
    await this.users.passwords.assertAcceptable(auth.project, input.new_password);
    await this.users.replacePasswordHash(auth.project.id, user.id, await hashPassword(input.new_password));
    const keep = auth.refreshToken ? await this.sessions.findByRefreshToken(auth.project.id, auth.refreshToken) : undefined;
    await this.sessions.endAllOfUser(auth.project.id, user.id, keep?.user_id === user.id ? keep.id : undefined);
  }

  async setPassword(auth: RequestAuth, password: string): Promise<void> {
    assertPasswordSignIn(auth.project);
    const user = auth.user?.record as UserRecord;
    if (user.password_hash) throw new PlainHttpError(400, 'The user already has a password; use /auth/password/update to change it.');
    await this.users.passwords.assertAcceptable(auth.project, password);
    await this.users.replacePasswordHash(auth.project.id, user.id, await hashPassword(password));
  }
}

function assertPasswordSignIn(project: Project): void {
  if (!project.config.auth.password.allowSignIn) throw new PasswordAuthenticationNotEnabledError();
}
