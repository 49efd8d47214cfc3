import type { DbHandle } from '../../../db/handle.ts';
import { type BackgroundJob, type JobLog, scheduleJob } from '../../../kernel/background-job.ts';
import { deleteExpiredBatchAcrossProjects, type ExpiringTable } from './expired-rows.repository.ts';

const day = 24 * 60 * 60 * 1000;

/**
 * How long after its expiry a row is kept: as long as the protocol answers an expired row
 * differently from an unknown one, else not at all.
 */
export const expiredRowsGraceMillis: Record<ExpiringTable, number> = {
  // VERIFICATION_CODE_EXPIRED (email and OTP codes, password resets, invitations, MFA attempts, passkey challenges).
  verification_code: 7 * day,
  // A poll answers status `expired`.
  cli_login_attempt: 7 * day,
  // The callback answers OUTER_OAUTH_TIMEOUT.
  oauth_flow: day,
  // Expired, used or unknown: the same INVALID_AUTHORIZATION_CODE.
  oauth_authorization_code: 0,
  // Expired or unknown: the same REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED.
  refresh_session: 0,
  // Only expired access tokens a newer one covers (see the repository).
  oauth_provider_token: 0,
  // The OpenID provider's codes, tokens, grants, sessions and interactions: the adapter already treats an expired
  // one as unknown (oidc-provider answers both alike).
  oauth_provider_entity: 0,
};

export type ExpiredRowsDeleted = Record<ExpiringTable, number>;

/** Deletes every expired row past its grace period, a batch (one short statement) at a time; how many per table. */
export async function deleteExpiredRows(db: DbHandle, options: { now?: Date; batchSize?: number } = {}): Promise<ExpiredRowsDeleted> {
  const now = (options.now ?? new Date()).getTime();
  const batchSize = options.batchSize ?? 5000;
  const deleted = {} as ExpiredRowsDeleted;
  for (const [table, graceMillis] of Object.entries(expiredRowsGraceMillis) as Array<[ExpiringTable, number]>) {
    const cutoff = new Date(now - graceMillis);
    deleted[table] = 0;
    let batch: number;
    do {
      batch = await deleteExpiredBatchAcrossProjects(db, table, cutoff, batchSize);
      deleted[table] += batch;
    } while (batch === batchSize);
  }
  return deleted;
}

/** The cleanup as a background job: logs what it deleted when it deleted anything. */
export function expiredRowsCleanupJob(db: DbHandle, intervalMillis: number): BackgroundJob {
  return {
    name: 'expired rows cleanup',
    intervalMillis,
    run: async (log) => {
      const deleted = await deleteExpiredRows(db);
      if (Object.values(deleted).some((count) => count > 0)) log.info({ deleted }, 'expired rows deleted');
    },
  };
}

/** The job on its own timer (see `scheduleJob`): first run after one interval; `stop` waits for a run in progress. */
export function scheduleExpiredRowsCleanup(db: DbHandle, options: { intervalMillis: number; log: JobLog }): { stop: () => Promise<void> } {
  return scheduleJob(expiredRowsCleanupJob(db, options.intervalMillis), options.log);
}
