import { defineModule } from '../../../kernel/module.ts';
import { expiredRowsCleanupJob } from './expired-rows-cleanup.ts';
import * as migration0017 from './migrations/0017-expiry-indexes.ts';

export type MaintenanceSettings = {
  /** How often expired rows are deleted (EXPIRED_ROWS_CLEANUP_INTERVAL_SECONDS, default 600); 0: never. */
  expiredRowsCleanupIntervalMillis: number;
};

function parseCleanupInterval(value: string | undefined): number {
  if (value === undefined || value === '') return 600_000;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > 86_400) {
    throw new Error(`EXPIRED_ROWS_CLEANUP_INTERVAL_SECONDS must be a whole number of seconds from 0 (off) to 86400, got ${value}`);
  }
  return seconds * 1000;
}

/** Deletes expired codes, sessions, CLI logins and OAuth flows on a timer, after their grace period. */
export const maintenanceModule = defineModule({
  name: 'maintenance',
  migrations: { '0017-expiry-indexes': migration0017 },
  settings: (env): MaintenanceSettings => ({
    expiredRowsCleanupIntervalMillis: parseCleanupInterval(env.EXPIRED_ROWS_CLEANUP_INTERVAL_SECONDS),
  }),
  jobs: (_services, { db, settings }) => [expiredRowsCleanupJob(db, settings.expiredRowsCleanupIntervalMillis)],
});
