import { sql } from 'kysely';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { RefreshSessionRow } from './session.table.ts';
import type { ClaimsUser } from '../../../request-context/access-token-claims.ts';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';

/** What a refresh needs of the session: whose it is, whether it is alive, when it was last used. */
export type RefreshableSession = Pick<RefreshSessionRow, 'id' | 'project_id' | 'user_id' | 'expires_at' | 'last_used_at'>;
export type SessionWithClaimsUser = { session: RefreshableSession; user: ClaimsUser };

type Tuple = [
  sessionId: string,
  sessionProjectId: ProjectId,
  expiresAt: string,
  lastUsedAt: string,
  id: string,
  projectId: ProjectId,
  displayName: string | null,
  primaryEmail: string | null,
  primaryEmailVerified: boolean | null,
  selectedTeamId: string | null,
  signedUpAt: string,
  isAnonymous: boolean,
  restrictedByAdmin: boolean,
  /** bytea as JSON: `\x` and hex. */
  totpSecret: string | null,
];

/**
 * Only what the access token's claims are made of, as one JSON array: pg parses one JSON column
 * natively, where fourteen columns cost a parser and a result field each (measured: a third of the
 * client's work per refresh). Timestamps arrive as ISO 8601 with their offset.
 */
const claimsTuple = sql<Tuple>`json_build_array(s.id, s.project_id, s.expires_at, s.last_used_at, u.id, u.project_id, u.display_name,
  u.primary_email, u.primary_email_verified, u.selected_team_id, u.signed_up_at, u.is_anonymous, u.restricted_by_admin, u.totp_secret)`;

function decode(tuple: Tuple | undefined): SessionWithClaimsUser | undefined {
  if (!tuple) return undefined;
  const [sessionId, sessionProjectId, expiresAt, lastUsedAt, id, projectId, ...rest] = tuple;
  const [displayName, primaryEmail, primaryEmailVerified, selectedTeamId, signedUpAt, isAnonymous, restrictedByAdmin, totpSecret] = rest;
  return {
    session: {
      id: sessionId,
      project_id: sessionProjectId,
      user_id: id,
      expires_at: new Date(expiresAt),
      last_used_at: new Date(lastUsedAt),
    },
    user: {
      id,
      project_id: projectId,
      display_name: displayName,
      primary_email: primaryEmail,
      primary_email_verified: primaryEmailVerified,
      selected_team_id: selectedTeamId,
      signed_up_at: new Date(signedUpAt),
      is_anonymous: isAnonymous,
      restricted_by_admin: restrictedByAdmin,
      totp_secret: totpSecret === null ? null : Buffer.from(totpSecret.slice(2), 'hex'),
    },
  };
}

/** The hot path of every refresh: the session of a refresh token with its user's claim columns, in one read-only statement. */
export async function findSessionByToken(
  db: DbHandle,
  projectId: ProjectId,
  tokenHash: string,
): Promise<SessionWithClaimsUser | undefined> {
  const { rows } = await sql<{ tuple: Tuple }>`
    select ${claimsTuple} as tuple from refresh_session s join project_user u on u.id = s.user_id
    where s.token_hash = ${tokenHash} and s.project_id = ${projectId}`.execute(kyselyOf(db));
  return decode(rows[0]?.tuple);
}

/** A session by id with its user's claim columns (a rotated-away token names its session). */
export async function findSessionById(db: DbHandle, projectId: ProjectId, id: string): Promise<SessionWithClaimsUser | undefined> {
  const { rows } = await sql<{ tuple: Tuple }>`
    select ${claimsTuple} as tuple from refresh_session s join project_user u on u.id = s.user_id where s.id = ${id} and s.project_id = ${projectId}`.execute(
    kyselyOf(db),
  );
  return decode(rows[0]?.tuple);
}

/**
 * Records a use of the session and the user's activity in one statement. Kept out of the lookup: a
 * statement that may write costs Postgres about 40% more even when it writes nothing, and this runs
 * at most once a minute per session.
 */
export async function recordSessionUse(db: DbHandle, projectId: ProjectId, sessionId: string, ip: string | null, at: Date): Promise<void> {
  await sql`
    with used as (
      update refresh_session set last_used_at = ${at}, last_used_ip = ${ip} where id = ${sessionId} and project_id = ${projectId} returning user_id
    )
    update project_user set last_active_at = ${at} where id = (select user_id from used)`.execute(kyselyOf(db));
}
