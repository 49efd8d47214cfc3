import type { Insertable, Selectable } from 'kysely';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { CliLoginAttemptTable } from './cli-login.table.ts';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';

export type CliLoginAttemptRow = Selectable<CliLoginAttemptTable>;

export async function insertCliLoginAttempt(db: DbHandle, row: Insertable<CliLoginAttemptTable>): Promise<void> {
  await kyselyOf(db).insertInto('cli_login_attempt').values(row).execute();
}

export function findCliLoginAttempt(
  db: DbHandle,
  projectId: ProjectId,
  code: { polling_code_hash: string } | { login_code_hash: string },
): Promise<CliLoginAttemptRow | undefined> {
  const [column, value] =
    'polling_code_hash' in code
      ? (['polling_code_hash', code.polling_code_hash] as const)
      : (['login_code_hash', code.login_code_hash] as const);
  return kyselyOf(db)
    .selectFrom('cli_login_attempt')
    .selectAll()
    .where(column, '=', value)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}

/** Updates an attempt still pending at `now` (not expired, completed or used); false when it no longer is. */
async function updatePending(
  db: DbHandle,
  projectId: ProjectId,
  id: string,
  now: Date,
  set: Partial<Pick<CliLoginAttemptRow, 'anon_session_id' | 'user_id' | 'completed_at'>>,
  anonSessionId?: string,
): Promise<boolean> {
  let query = kyselyOf(db)
    .updateTable('cli_login_attempt')
    .set(set)
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('user_id', 'is', null)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now);
  if (anonSessionId !== undefined) query = query.where('anon_session_id', '=', anonSessionId);
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Detaches the CLI's anonymous session (claimed once by the browser). */
export const detachAnonSession = (db: DbHandle, projectId: ProjectId, id: string, anonSessionId: string, now: Date) =>
  updatePending(db, projectId, id, now, { anon_session_id: null }, anonSessionId);

/** Records the browser user who completed the login; the anonymous session is no longer offered. */
export const completeCliLoginAttempt = (db: DbHandle, projectId: ProjectId, id: string, userId: string, now: Date) =>
  updatePending(db, projectId, id, now, { user_id: userId, completed_at: now, anon_session_id: null });

/** Marks a completed attempt used; its user, or undefined when it was used already. */
export async function useCliLoginAttempt(db: DbHandle, projectId: ProjectId, id: string, now: Date): Promise<string | undefined> {
  const used = await kyselyOf(db)
    .updateTable('cli_login_attempt')
    .set({ used_at: now })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('user_id', 'is not', null)
    .returning('user_id')
    .executeTakeFirst();
  return used?.user_id ?? undefined;
}
