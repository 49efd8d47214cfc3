import { type Insertable, sql } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { RefreshSessionRow, RefreshSessionTable } from './session.table.ts';

export async function insertSession(db: DbHandle, row: Insertable<RefreshSessionTable>): Promise<RefreshSessionRow> {
  return kyselyOf(db).insertInto('refresh_session').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findSessionByTokenHash(
  db: DbHandle,
  projectId: ProjectId,
  tokenHash: string,
): Promise<RefreshSessionRow | undefined> {
  return kyselyOf(db)
    .selectFrom('refresh_session')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}

export async function findSession(db: DbHandle, projectId: ProjectId, id: string): Promise<RefreshSessionRow | undefined> {
  return kyselyOf(db).selectFrom('refresh_session').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

export async function listActiveSessionsOfUser(db: DbHandle, projectId: ProjectId, userId: string): Promise<RefreshSessionRow[]> {
  return kyselyOf(db)
    .selectFrom('refresh_session')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('expires_at', '>', new Date())
    .orderBy('last_used_at', 'desc')
    .execute();
}

/**
 * Replaces the session's token `previousHash` with `newHash` in one statement, remembering the old
 * one (for the grace window and reuse detection) with its sealed successor. False when
 * `previousHash` is no longer the session's token: a concurrent refresh rotated it first, or the
 * session ended.
 */
export async function rotateSessionToken(
  db: DbHandle,
  projectId: ProjectId,
  id: string,
  change: { newHash: string; previousHash: string; successorSealed: Buffer; at: Date },
): Promise<boolean> {
  const { rows } = await sql`
    with rotated as (
      update refresh_session set token_hash = ${change.newHash}
      where id = ${id} and project_id = ${projectId} and token_hash = ${change.previousHash} returning id
    )
    insert into replaced_refresh_token (token_hash, session_id, replaced_at, successor_sealed)
    select ${change.previousHash}, id, ${change.at}, ${change.successorSealed} from rotated returning session_id`.execute(kyselyOf(db));
  return rows.length > 0;
}

/** A token rotation replaced, if it belonged to a session of the project, with the session's current token digest. */
export async function findReplacedToken(db: DbHandle, projectId: ProjectId, tokenHash: string) {
  return kyselyOf(db)
    .selectFrom('replaced_refresh_token as r')
    .innerJoin('refresh_session as s', 's.id', 'r.session_id')
    .selectAll('r')
    .select('s.token_hash as current_token_hash')
    .where('r.token_hash', '=', tokenHash)
    .where('s.project_id', '=', projectId)
    .executeTakeFirst();
}

/** The token the session's last rotation replaced. */
export async function findNewestReplacedToken(db: DbHandle, projectId: ProjectId, sessionId: string): Promise<string | undefined> {
  const newest = await kyselyOf(db)
    .selectFrom('replaced_refresh_token as r')
    .innerJoin('refresh_session as s', 's.id', 'r.session_id')
    .select('r.token_hash')
    .where('r.session_id', '=', sessionId)
    .where('s.project_id', '=', projectId)
    .orderBy('r.replaced_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return newest?.token_hash;
}

export async function deleteSessionRow(db: DbHandle, projectId: ProjectId, id: string): Promise<boolean> {
  const result = await kyselyOf(db)
    .deleteFrom('refresh_session')
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function deleteSessionsOfUser(db: DbHandle, projectId: ProjectId, userId: string, exceptSessionId?: string): Promise<void> {
  let query = kyselyOf(db).deleteFrom('refresh_session').where('project_id', '=', projectId).where('user_id', '=', userId);
  if (exceptSessionId) query = query.where('id', '!=', exceptSessionId);
  await query.execute();
}
