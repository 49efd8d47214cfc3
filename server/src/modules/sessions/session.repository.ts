import type { Insertable, Kysely } from 'kysely';
import type { Database, RefreshSessionRow, RefreshSessionTable } from '../../db/schema.ts';

export async function insertSession(db: Kysely<Database>, row: Insertable<RefreshSessionTable>): Promise<RefreshSessionRow> {
  return db.insertInto('refresh_session').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findSessionByTokenHash(db: Kysely<Database>, tokenHash: string): Promise<RefreshSessionRow | undefined> {
  return db.selectFrom('refresh_session').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
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
