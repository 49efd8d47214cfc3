import { type Insertable, sql } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { VerificationCodeRow, VerificationCodeTable } from './verification-code.table.ts';

export async function insertCode(db: DbHandle, row: Insertable<VerificationCodeTable>): Promise<void> {
  await kyselyOf(db).insertInto('verification_code').values(row).execute();
}

export async function findCodeByNonce(
  db: DbHandle,
  projectId: ProjectId,
  purpose: string,
  nonce: string,
): Promise<VerificationCodeRow | undefined> {
  return kyselyOf(db)
    .selectFrom('verification_code')
    .selectAll()
    .where('nonce', '=', nonce)
    .where('project_id', '=', projectId)
    .where('purpose', '=', purpose)
    .executeTakeFirst();
}

/** Counts a wrong attempt; the attempts so far. */
export async function countWrongAttempt(db: DbHandle, projectId: ProjectId, id: string): Promise<number> {
  const { attempts } = await kyselyOf(db)
    .updateTable('verification_code')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .returning('attempts')
    .executeTakeFirstOrThrow();
  return attempts;
}

/** Uses the code up; false when another request did first. */
export async function useCode(db: DbHandle, projectId: ProjectId, id: string, at: Date): Promise<boolean> {
  const used = await kyselyOf(db)
    .updateTable('verification_code')
    .set({ used_at: at })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return used.numUpdatedRows > 0n;
}

/** Makes a used code usable again (the work it was used for was refused before anything was written). */
export async function releaseCode(db: DbHandle, projectId: ProjectId, id: string): Promise<void> {
  await kyselyOf(db)
    .updateTable('verification_code')
    .set({ used_at: null })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .execute();
}

/** A filter on one field of the codes' data (`data->>'team_id' = …`). */
export type DataMatch = Readonly<Record<string, string>>;

const matching = (match: DataMatch) => Object.entries(match).map(([key, value]) => sql<boolean>`data->>${key} = ${value}`);

/** The unused, unexpired codes of a purpose whose data matches, newest first. */
export async function listUnusedCodes(db: DbHandle, projectId: ProjectId, purpose: string, match: DataMatch, now: Date) {
  let query = kyselyOf(db)
    .selectFrom('verification_code')
    .select(['id', 'data', 'expires_at'])
    .where('project_id', '=', projectId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now);
  for (const condition of matching(match)) query = query.where(condition);
  return query.orderBy('created_at', 'desc').execute();
}

/** The unused, unexpired code of a purpose with this id. */
export async function findUnusedCodeById(db: DbHandle, projectId: ProjectId, purpose: string, id: string, now: Date) {
  return kyselyOf(db)
    .selectFrom('verification_code')
    .select(['id', 'data', 'expires_at'])
    .where('project_id', '=', projectId)
    .where('purpose', '=', purpose)
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Uses up an unused code by id (its link stops working); false when there is none. */
export async function useCodeById(
  db: DbHandle,
  projectId: ProjectId,
  purpose: string,
  id: string,
  match: DataMatch,
  at: Date,
): Promise<boolean> {
  let query = kyselyOf(db)
    .updateTable('verification_code')
    .set({ used_at: at })
    .where('project_id', '=', projectId)
    .where('purpose', '=', purpose)
    .where('id', '=', id)
    .where('used_at', 'is', null);
  for (const condition of matching(match)) query = query.where(condition);
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteCodes(db: DbHandle, projectId: ProjectId, purpose: string, match: DataMatch): Promise<void> {
  let query = kyselyOf(db).deleteFrom('verification_code').where('project_id', '=', projectId).where('purpose', '=', purpose);
  for (const condition of matching(match)) query = query.where(condition);
  await query.execute();
}
