import { sql } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';

/** Holds the user's known devices until the transaction ends: two sign-ins at once see one another. */
export async function lockKnownDevicesOfUser(db: DbHandle, projectId: ProjectId, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`known_device:${projectId}:${userId}`}, 0))`.execute(kyselyOf(db));
}

/** How many devices the user has, and whether this one is among them. */
export async function findKnownDevices(
  db: DbHandle,
  projectId: ProjectId,
  userId: string,
  fingerprint: string,
): Promise<{ count: number; known: boolean }> {
  const row = await kyselyOf(db)
    .selectFrom('known_device')
    .select([sql<string>`count(*)`.as('count'), sql<boolean>`coalesce(bool_or(fingerprint = ${fingerprint}), false)`.as('known')])
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), known: row.known };
}

export async function insertKnownDevice(db: DbHandle, projectId: ProjectId, row: { user_id: string; fingerprint: string; at: Date }) {
  await kyselyOf(db)
    .insertInto('known_device')
    .values({ project_id: projectId, user_id: row.user_id, fingerprint: row.fingerprint, first_seen_at: row.at, last_seen_at: row.at })
    .execute();
}

export async function touchKnownDevice(db: DbHandle, projectId: ProjectId, userId: string, fingerprint: string, at: Date) {
  await kyselyOf(db)
    .updateTable('known_device')
    .set({ last_seen_at: at })
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('fingerprint', '=', fingerprint)
    .execute();
}

/** Keeps the user's `keep` most recently seen devices. */
export async function deleteLeastRecentKnownDevices(db: DbHandle, projectId: ProjectId, userId: string, keep: number) {
  const kept = kyselyOf(db)
    .selectFrom('known_device')
    .select('fingerprint')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .orderBy('last_seen_at', 'desc')
    .limit(keep);
  await kyselyOf(db)
    .deleteFrom('known_device')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('fingerprint', 'not in', kept)
    .execute();
}
