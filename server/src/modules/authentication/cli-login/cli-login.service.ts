import { randomUUID } from 'node:crypto';
import { InvalidPollingCodeError, RestrictedUserNotAllowedError } from '@gatehouse/protocol/errors';
import type { DbHandle } from '../../../db/handle.ts';
import type { RefreshSessionRow } from '../sessions/index.ts';
import { digestSecret } from '../../../lib/digest.ts';
import { PlainHttpError } from '../../../lib/plain-http-error.ts';
import { randomBase32 } from '../../../lib/random.ts';
import type { RequestAuth } from '../../../request-context/request-auth.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { SessionService } from '../sessions/index.ts';
import type { SignInService } from '../sign-in/index.ts';
import type { UserRecord } from '../../../tenancy/user-record.ts';
import type { UserService } from '../../identity/users/index.ts';
import { restrictionOf } from '../../../tenancy/restriction.ts';
import {
  type CliLoginAttemptRow,
  completeCliLoginAttempt,
  detachAnonSession,
  findCliLoginAttempt,
  insertCliLoginAttempt,
  useCliLoginAttempt,
} from './cli-login.repository.ts';

export const defaultCliLoginLifetimeMillis = 2 * 60 * 60 * 1000;
const codeLength = 45;

export type PollResult = { status: 'waiting' | 'expired' | 'used' } | { status: 'success'; refresh_token: string };
type LiveSession = { session: RefreshSessionRow; user: UserRecord };

const normalizeCode = (code: string) => code.trim().toLowerCase();
const invalidLoginCode = () => new PlainHttpError(400, 'Invalid login code or the code has expired.');

/**
 * CLI login (docs/protocol/endpoints.md §9): the CLI polls with one code while a browser user completes the other.
 * No refresh token is stored: completing records the user, and the successful poll creates the session.
 */
export class CliLoginService {
  constructor(
    private readonly db: DbHandle,
    private readonly sessions: SessionService,
    private readonly users: UserService,
    private readonly signIn: SignInService,
  ) {}

  async start(
    project: Project,
    input: { expires_in_millis?: number; anon_refresh_token?: string },
  ): Promise<{ polling_code: string; login_code: string; expires_at: string }> {
    let anonSessionId: string | null = null;
    if (input.anon_refresh_token !== undefined) {
      const anonymous = await this.liveSession(project, input.anon_refresh_token);
      if (!anonymous?.user.is_anonymous)
        throw new PlainHttpError(400, 'anon_refresh_token must be a live refresh token of an anonymous user of this project.');
      anonSessionId = anonymous.session.id;
    }
    const pollingCode = randomBase32(codeLength);
    const loginCode = randomBase32(codeLength);
    const expiresAt = new Date(Date.now() + (input.expires_in_millis ?? defaultCliLoginLifetimeMillis));
    await insertCliLoginAttempt(this.db, {
      id: randomUUID(),
      project_id: project.id,
      polling_code_hash: digestSecret(pollingCode),
      login_code_hash: digestSecret(loginCode),
      anon_session_id: anonSessionId,
      expires_at: expiresAt,
    });
    return { polling_code: pollingCode, login_code: loginCode, expires_at: expiresAt.toISOString() };
  }

  /** Once completed, the first poll gets a new session of the user; later ones `used`. */
  async poll(project: Project, pollingCode: string, ip: string | null): Promise<PollResult> {
    const now = new Date();
    const attempt = await findCliLoginAttempt(this.db, project.id, { polling_code_hash: digestSecret(normalizeCode(pollingCode)) });
    if (!attempt) throw new InvalidPollingCodeError(undefined, 'The polling code is invalid or does not exist.');
    if (attempt.expires_at <= now) return { status: 'expired' };
    if (attempt.used_at) return { status: 'used' };
    if (!attempt.user_id) return { status: 'waiting' };
    const userId = await useCliLoginAttempt(this.db, project.id, attempt.id, now);
    if (!userId) return { status: 'used' };
    const { refreshToken } = await this.sessions.create(project.id, userId, { ip });
    return { status: 'success', refresh_token: refreshToken };
  }

  /** Whether the CLI sent an anonymous session the browser can still claim. */
  async check(project: Project, loginCode: string): Promise<{ cli_session_state: 'anonymous' | 'none' }> {
    const attempt = await this.pendingAttempt(project, loginCode);
    return { cli_session_state: (await this.anonymousSessionOf(project, attempt)) ? 'anonymous' : 'none' };
  }

  /** A new session of the CLI's anonymous user for the browser, handed out once. */
  async claimAnonSession(project: Project, loginCode: string, ip: string | null): Promise<{ access_token: string; refresh_token: string }> {
    const attempt = await this.pendingAttempt(project, loginCode);
    const anonymous = await this.anonymousSessionOf(project, attempt);
    const noSession = () => new PlainHttpError(400, 'No anonymous session is associated with this login code.');
    if (!anonymous) throw noSession();
    if (!(await detachAnonSession(this.db, project.id, attempt.id, anonymous.session.id, new Date()))) throw noSession();
    const tokens = await this.signIn.signIn(project, anonymous.user, { ip });
    return { access_token: tokens.access_token, refresh_token: tokens.refresh_token };
  }

  /** Completes the login for the user of the browser's refresh token (who must be the access token's user, if one is sent). */
  async complete(auth: RequestAuth, loginCode: string, refreshToken: string | undefined): Promise<{ success: true }> {
    const { project } = auth;
    if (refreshToken === undefined) throw new PlainHttpError(400, 'refresh_token is required to complete a CLI login.');
    const attempt = await this.pendingAttempt(project, loginCode);
    const browser = await this.liveSession(project, refreshToken);
    if (!browser) throw new PlainHttpError(400, 'Invalid refresh token.');
    if (auth.user && auth.user.record.id !== browser.user.id)
      throw new PlainHttpError(400, 'The refresh token and the access token belong to different users.');
    const restriction = restrictionOf(project, browser.user);
    if (restriction) throw new RestrictedUserNotAllowedError({ restricted_reason: restriction });
    if (!(await completeCliLoginAttempt(this.db, project.id, attempt.id, browser.user.id, new Date()))) throw invalidLoginCode();
    return { success: true };
  }

  private async pendingAttempt(project: Project, loginCode: string): Promise<CliLoginAttemptRow> {
    const attempt = await findCliLoginAttempt(this.db, project.id, { login_code_hash: digestSecret(normalizeCode(loginCode)) });
    if (!attempt || attempt.user_id || attempt.used_at || attempt.expires_at <= new Date()) throw invalidLoginCode();
    return attempt;
  }

  private async liveSession(project: Project, refreshToken: string): Promise<LiveSession | undefined> {
    const session = await this.sessions.findByRefreshToken(project.id, refreshToken);
    return this.withUser(project, session);
  }

  private async anonymousSessionOf(project: Project, attempt: CliLoginAttemptRow): Promise<LiveSession | undefined> {
    if (!attempt.anon_session_id) return undefined;
    const live = await this.withUser(project, await this.sessions.find(project.id, attempt.anon_session_id));
    return live?.user.is_anonymous ? live : undefined;
  }

  private async withUser(project: Project, session: RefreshSessionRow | undefined): Promise<LiveSession | undefined> {
    if (!session || session.expires_at <= new Date()) return undefined;
    const user = await this.users.find(project.id, session.user_id);
    return user ? { session, user } : undefined;
  }
}
