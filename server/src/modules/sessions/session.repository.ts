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

/** The session of a refresh token (or id) with its user, in one statement: the hot path of every refresh. */
export async function findSessionWithUser(
  db: Kysely<Database>,
  sessionFilter: { tokenHash: string } | { id: string },
): Promise<SessionWithUser | undefined> {
  const condition = 'tokenHash' in sessionFilter ? sql`s.token_hash = ${sessionFilter.tokenHash}` : sql`s.id = ${sessionFilter.id}`;
  const { rows } = await sql<
    UserRecord & {
      session: Omit<RefreshSessionRow, 'created_at' | 'expires_at' | 'last_used_at'> &
        Record<'created_at' | 'expires_at' | 'last_used_at', string>;
    }
  >`
    select u.*, c.value as primary_email, c.is_verified as primary_email_verified, c.used_for_auth as primary_email_auth_enabled,
      json_build_object('id', s.id, 'project_id', s.project_id, 'user_id', s.user_id, 'token_hash', s.token_hash,
        'created_at', s.created_at, 'expires_at', s.expires_at, 'last_used_at', s.last_used_at,
        'last_used_ip', s.last_used_ip, 'is_impersonation', s.is_impersonation) as session
    from refresh_session s
    join project_user u on u.id = s.user_id
    left join contact_channel c on c.user_id = u.id and c.is_primary
    where ${condition}`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  const { session, ...user } = row;
  return {
    user,
    session: {
      ...session,
      created_at: new Date(session.created_at),
      expires_at: new Date(session.expires_at),
      last_used_at: new Date(session.last_used_at),
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
