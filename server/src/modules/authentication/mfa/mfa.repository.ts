import { randomUUID } from 'node:crypto';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import { type DbHandle, inTransaction, kyselyOf } from '../../../db/handle.ts';

/*
 * user_mfa_state has no project column: it is keyed by a user id the service read within the
 * project first; the project still scopes every call (and the recovery codes, which carry it).
 */

/** Forgets a user's recovery codes, last TOTP step and wrong attempts (its TOTP secret changed). */
export async function resetMfaState(db: DbHandle, projectId: ProjectId, userId: string): Promise<void> {
  await kyselyOf(db).deleteFrom('mfa_recovery_code').where('project_id', '=', projectId).where('user_id', '=', userId).execute();
  await kyselyOf(db).deleteFrom('user_mfa_state').where('user_id', '=', userId).execute();
}

export async function replaceRecoveryCodes(db: DbHandle, projectId: ProjectId, userId: string, codeHashes: string[]): Promise<void> {
  await inTransaction(db, async (handle) => {
    const trx = kyselyOf(handle);
    await trx.deleteFrom('mfa_recovery_code').where('project_id', '=', projectId).where('user_id', '=', userId).execute();
    await trx
      .insertInto('mfa_recovery_code')
      .values(codeHashes.map((code_hash) => ({ id: randomUUID(), project_id: projectId, user_id: userId, code_hash })))
      .execute();
  });
}

/** Uses a recovery code up; false when the user has no such unused code. */
export async function useRecoveryCode(db: DbHandle, projectId: ProjectId, userId: string, codeHash: string): Promise<boolean> {
  const used = await kyselyOf(db)
    .updateTable('mfa_recovery_code')
    .set({ used_at: new Date() })
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return used.numUpdatedRows > 0n;
}

/** Records `step` as the last accepted TOTP step; false when that step or a later one was accepted already. */
export async function acceptTotpStep(db: DbHandle, _projectId: ProjectId, userId: string, step: number): Promise<boolean> {
  const accepted = await kyselyOf(db)
    .insertInto('user_mfa_state')
    .values({ user_id: userId, last_totp_step: step })
    .onConflict((conflict) =>
      conflict
        .column('user_id')
        .doUpdateSet({ last_totp_step: step })
        .where((eb) => eb.or([eb('user_mfa_state.last_totp_step', 'is', null), eb('user_mfa_state.last_totp_step', '<', step)])),
    )
    .returning('user_id')
    .executeTakeFirst();
  return accepted !== undefined;
}

export async function findFailureWindow(
  db: DbHandle,
  _projectId: ProjectId,
  userId: string,
): Promise<{ failed_attempts: number; failures_since: Date | null } | undefined> {
  return kyselyOf(db)
    .selectFrom('user_mfa_state')
    .select(['failed_attempts', 'failures_since'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Counts a wrong attempt in the current window, or opens a new window when the last one ended. */
export async function recordFailure(db: DbHandle, _projectId: ProjectId, userId: string, now: Date, windowMillis: number): Promise<void> {
  const windowStart = new Date(now.getTime() - windowMillis);
  await kyselyOf(db)
    .insertInto('user_mfa_state')
    .values({ user_id: userId, failed_attempts: 1, failures_since: now })
    .onConflict((conflict) =>
      conflict.column('user_id').doUpdateSet((eb) => {
        const windowEnded = eb.or([
          eb('user_mfa_state.failures_since', 'is', null),
          eb('user_mfa_state.failures_since', '<=', windowStart),
        ]);
        return {
          failed_attempts: eb
            .case()
            .when(windowEnded)
            .then(1)
            .else(eb('user_mfa_state.failed_attempts', '+', 1))
            .end(),
          failures_since: eb.case().when(windowEnded).then(now).else(eb.ref('user_mfa_state.failures_since')).end(),
        };
      }),
    )
    .execute();
}

export async function clearFailures(db: DbHandle, _projectId: ProjectId, userId: string): Promise<void> {
  await kyselyOf(db)
    .updateTable('user_mfa_state')
    .set({ failed_attempts: 0, failures_since: null })
    .where('user_id', '=', userId)
    .execute();
}
