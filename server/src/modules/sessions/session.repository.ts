import { type Insertable, type Kysely, sql } from 'kysely';
import type { Database, RefreshSessionRow, RefreshSessionTable } from '../../db/schema.ts';
import type { UserRecord } from '../users/user.repository.ts';

export type SessionWithUser = { session: RefreshSessionRow; user: UserRecord };

export async function insertSession(db: Kysely<Database>, row: Insertable<RefreshSessionTable>): Promise<RefreshSessionRow> {
  return db.insertInto('refresh_session').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findSessionByTokenHash(db: Kysely<Database>, tokenHash: string): Promise<RefreshSessionRow | undefined> {
  return db.selectFrom('refresh_session').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

type SessionColumns = {
  session_id: string;
  session_token_hash: string;
  session_created_at: Date;
  session_expires_at: Date;
  session_last_used_at: Date;
  session_last_used_ip: string | null;
  session_is_impersonation: boolean;
};

/** The session of a refresh token (or id) with its user, in one statement: the hot path of every refresh. */
export async function findSessionWithUser(
  db: Kysely<Database>,
  sessionFilter: { tokenHash: string } | { id: string },
): Promise<SessionWithUser | undefined> {
  const condition = 'tokenHash' in sessionFilter ? sql`s.token_hash = ${sessionFilter.tokenHash}` : sql`s.id = ${sessionFilter.id}`;
  const { rows } = await sql<UserRecord & SessionColumns>`
    select u.*,
      s.id as session_id, s.token_hash as session_token_hash, s.created_at as session_created_at, s.expires_at as session_expires_at,
      s.last_used_at as session_last_used_at, s.last_used_ip as session_last_used_ip, s.is_impersonation as session_is_impersonation
    from refresh_session s
    join project_user u on u.id = s.user_id
    where ${condition}`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  const {
    session_id: id,
    session_token_hash: token_hash,
    session_created_at: created_at,
    session_expires_at: expires_at,
    session_last_used_at: last_used_at,
    session_last_used_ip: last_used_ip,
    session_is_impersonation: is_impersonation,
    ...user
  } = row;
  return {
    user,
    session: {
      id,
      project_id: user.project_id,
      user_id: user.id,
      token_hash,
      created_at,
      expires_at,
      last_used_at,
      last_used_ip,
      is_impersonation,
    },
  };
}

export async function findSession(db: Kysely<Database>, projectId: string, id: string): Promise<RefreshSessionRow | undefined> {
  return db.selectFrom('refresh_session').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

export async function listActiveSessionsOfUser(db: Kysely<Database>, projectId: string, userId: string): Promise<RefreshSessionRow[]> {
  return db
    .selectFrom('refresh_session')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('expires_at', '>', new Date())
    .orderBy('last_used_at', 'desc')
    .execute();
}

export async function recordSessionUse(db: Kysely<Database>, session: RefreshSessionRow, ip: string | null, at: Date): Promise<void> {
  await db.updateTable('refresh_session').set({ last_used_at: at, last_used_ip: ip }).where('id', '=', session.id).execute();
  await db.updateTable('project_user').set({ last_active_at: at }).where('id', '=', session.user_id).execute();
}

/** Replaces the session's token, remembering the old one for the grace window and reuse detection. */
export async function rotateSessionToken(db: Kysely<Database>, id: string, newHash: string, previousHash: string, at: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('refresh_session').set({ token_hash: newHash }).where('id', '=', id).execute();
    await trx.insertInto('replaced_refresh_token').values({ token_hash: previousHash, session_id: id, replaced_at: at }).execute();
  });
}

export async function findReplacedToken(db: Kysely<Database>, tokenHash: string) {
  return db.selectFrom('replaced_refresh_token').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function deleteSessionRow(db: Kysely<Database>, projectId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('refresh_session').where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function deleteSessionsOfUser(db: Kysely<Database>, userId: string, exceptSessionId?: string): Promise<void> {
  let query = db.deleteFrom('refresh_session').where('user_id', '=', userId);
  if (exceptSessionId) query = query.where('id', '!=', exceptSessionId);
  await query.execute();
}
