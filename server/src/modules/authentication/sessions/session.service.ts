import { randomUUID } from 'node:crypto';
import { CannotDeleteCurrentSessionError, RefreshTokenNotFoundOrExpiredError } from '@gatehouse/protocol/errors';
import { type DbHandle, inTransaction } from '../../../db/handle.ts';
import type { AuditLog } from '../../administration/audit-log/index.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { RefreshSessionRow } from './session.table.ts';
import { digestSecret } from '../../../lib/digest.ts';
import { PlainHttpError } from '../../../lib/plain-http-error.ts';
import { randomBase32 } from '../../../lib/random.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { ClaimsUser } from '../../../request-context/access-token-claims.ts';
import {
  deleteSessionRow,
  deleteSessionsOfUser,
  findSession,
  findNewestReplacedToken,
  findReplacedToken,
  findSessionByTokenHash,
  insertSession,
  listActiveSessionsOfUser,
  rotateSessionToken,
} from './session.repository.ts';
import { findSessionById, findSessionByToken, type RefreshableSession, recordSessionUse } from './session-refresh.repository.ts';
import { sealSuccessor, unsealSuccessor } from './successor-seal.ts';
import { currentRequestOrigin } from '../../../request-context/request-origin.ts';

export const defaultSessionLifetimeMillis = 365 * 24 * 60 * 60 * 1000;
/** With rotation on, the replaced token still works this long (concurrent refreshes from several tabs). */
export const rotationGraceMillis = 10_000;
/** Last-used times are written at most this often per session, keeping refresh a read on the hot path. */
const lastUsedWriteIntervalMillis = 60_000;

/** A stored user agent is cut to this (real ones are a few hundred characters). */
const maxStoredUserAgentLength = 1024;

/** A refresh token: 45 lowercase base32 characters (225 bits), stored only as a digest. */
export const generateRefreshToken = (): string => randomBase32(45);

export type RefreshOutcome = { session: RefreshableSession; user: ClaimsUser; refreshToken: string };

/** Sessions (refresh tokens): creation, refresh with optional rotation and reuse detection, revocation. */
export class SessionService {
  constructor(
    private readonly db: DbHandle,
    private readonly auditLog: AuditLog,
  ) {}

  async create(
    projectId: ProjectId,
    userId: string,
    options: { expiresInMillis?: number; isImpersonation?: boolean; ip?: string | null } = {},
  ): Promise<{ session: RefreshSessionRow; refreshToken: string }> {
    const refreshToken = generateRefreshToken();
    const now = Date.now();
    return inTransaction(this.db, async (trx) => {
      const session = await insertSession(trx, {
        id: randomUUID(),
        project_id: projectId,
        user_id: userId,
        token_hash: digestSecret(refreshToken),
        expires_at: new Date(now + (options.expiresInMillis ?? defaultSessionLifetimeMillis)),
        last_used_ip: options.ip ?? null,
        user_agent: currentRequestOrigin()?.userAgent?.slice(0, maxStoredUserAgentLength) ?? null,
        is_impersonation: options.isImpersonation ?? false,
      });
      // Every way in ends here: one entry per sign-in; impersonation names who started it (the request's actor).
      const target = { type: 'user', id: userId };
      const details = { session_id: session.id };
      await this.auditLog.record(
        trx,
        projectId,
        options.isImpersonation
          ? { action: 'auth.impersonated', target, details }
          : { action: 'auth.signed_in', target, details, actor: { type: 'user', id: userId } },
      );
      return { session, refreshToken };
    });
  }

  /**
   * The session a refresh token names, if it is alive. With rotation the token is replaced; a replaced
   * token is still honoured during the grace window, and replaying it later ends the whole session.
   */
  async refresh(project: Project, refreshToken: string, ip: string | null): Promise<RefreshOutcome> {
    const now = new Date();
    const digest = digestSecret(refreshToken.toLowerCase());
    const found = await findSessionByToken(this.db, project.id, digest);
    if (!found) return this.refreshWithReplacedToken(project, digest, refreshToken, now);
    const { session, user } = found;
    if (session.project_id !== project.id || session.expires_at <= now) throw new RefreshTokenNotFoundOrExpiredError();
    if (now.getTime() - session.last_used_at.getTime() > lastUsedWriteIntervalMillis)
      await recordSessionUse(this.db, project.id, session.id, ip, now);
    if (!project.config.auth.sessions.rotateRefreshTokens) return { session, user, refreshToken };
    const rotated = generateRefreshToken();
    const successorSealed = sealSuccessor(refreshToken, rotated);
    if (
      await rotateSessionToken(this.db, project.id, session.id, {
        newHash: digestSecret(rotated),
        previousHash: digest,
        successorSealed,
        at: now,
      })
    )
      return { session, user, refreshToken: rotated };
    // A concurrent refresh of this token rotated it first (its successor is the answer), or the session ended.
    return this.refreshWithReplacedToken(project, digest, refreshToken, now);
  }

  /**
   * A token rotation replaced: the one replaced last is honoured during the grace window (several
   * tabs refreshing at once), answering the same new token the rotation gave; any other replay
   * means the token leaked, and ends the session.
   */
  private async refreshWithReplacedToken(project: Project, digest: string, refreshToken: string, now: Date): Promise<RefreshOutcome> {
    const replaced = await findReplacedToken(this.db, project.id, digest);
    const found = replaced && (await findSessionById(this.db, project.id, replaced.session_id));
    if (!replaced || !found || found.session.project_id !== project.id || found.session.expires_at <= now)
      throw new RefreshTokenNotFoundOrExpiredError();
    const successor = replaced.successor_sealed ? unsealSuccessor(refreshToken, replaced.successor_sealed) : undefined;
    // The successor is still the session's token: nothing rotated since (rows from before 0050 ask the history).
    const newest = successor
      ? digestSecret(successor) === replaced.current_token_hash
      : (await findNewestReplacedToken(this.db, project.id, replaced.session_id)) === digest;
    const withinGrace = newest && now.getTime() - replaced.replaced_at.getTime() <= rotationGraceMillis;
    if (withinGrace) return { session: found.session, user: found.user, refreshToken: successor ?? refreshToken };
    await deleteSessionRow(this.db, project.id, found.session.id);
    throw new RefreshTokenNotFoundOrExpiredError();
  }

  async findByRefreshToken(projectId: ProjectId, refreshToken: string): Promise<RefreshSessionRow | undefined> {
    return findSessionByTokenHash(this.db, projectId, digestSecret(refreshToken.toLowerCase()));
  }

  /** The project's session by id (alive or not). */
  find(projectId: ProjectId, sessionId: string): Promise<RefreshSessionRow | undefined> {
    return findSession(this.db, projectId, sessionId);
  }

  /** Whether the session exists and has not expired (an access token's session, before minting something lasting). */
  async isAlive(projectId: ProjectId, sessionId: string): Promise<boolean> {
    const session = await findSession(this.db, projectId, sessionId);
    return session !== undefined && session.expires_at > new Date();
  }

  listActive(projectId: ProjectId, userId: string): Promise<RefreshSessionRow[]> {
    return listActiveSessionsOfUser(this.db, projectId, userId);
  }

  async endCurrent(projectId: ProjectId, sessionId: string): Promise<void> {
    if (!(await deleteSessionRow(this.db, projectId, sessionId))) throw new RefreshTokenNotFoundOrExpiredError();
  }

  async endOther(projectId: ProjectId, userId: string, sessionId: string, currentSessionId: string | undefined): Promise<void> {
    if (sessionId === currentSessionId) throw new CannotDeleteCurrentSessionError();
    const session = await findSession(this.db, projectId, sessionId);
    if (!session || session.user_id !== userId) throw new PlainHttpError(404, 'Session not found.');
    await deleteSessionRow(this.db, projectId, sessionId);
  }

  /** Ends every session of the user but one; pass a transaction to end them with the change that demands it. */
  endAllOfUser(projectId: ProjectId, userId: string, exceptSessionId?: string, db: DbHandle = this.db): Promise<void> {
    return deleteSessionsOfUser(db, projectId, userId, exceptSessionId);
  }
}
