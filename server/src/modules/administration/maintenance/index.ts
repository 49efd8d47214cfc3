import { readIntegerSetting } from '../../../config/settings.ts';
import { defineModule } from '../../../kernel/module.ts';
import { expiredRowsCleanupJob } from './expired-rows-cleanup.ts';
import * as migration0017 from './migrations/0017-expiry-indexes.ts';

export type MaintenanceSettings = {
  /** How often expired rows are deleted (EXPIRED_ROWS_CLEANUP_INTERVAL_SECONDS, default 600); 0: never. */
  expiredRowsCleanupIntervalMillis: number;
};

/** Deletes expired codes, sessions, CLI logins and OAuth flows on a timer, after their grace period. */
export const maintenanceModule = defineModule({
  name: 'maintenance',
  migrations: { '0017-expiry-indexes': migration0017 },
  settings: (env): MaintenanceSettings => ({
    expiredRowsCleanupIntervalMillis:
      (readIntegerSetting(env, 'EXPIRED_ROWS_CLEANUP_INTERVAL_SECONDS', {
        min: 0,
        max: 86_400,
        expected: 'a whole number of seconds from 0 (off) to 86400',
      }) ?? 600) * 1000,
  }),
  jobs: (_services, { db, settings }) => [expiredRowsCleanupJob(db, settings.expiredRowsCleanupIntervalMillis)],
});
