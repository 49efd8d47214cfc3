import { readIntegerSetting } from '../../../config/settings.ts';

/** How long the audit log keeps entries; read from the environment at start (a bad value stops it), or given by a test. */
export type AuditLogSettings = {
  /** Entries older than this many days are removed (AUDIT_LOG_RETENTION_DAYS, 365; 0 keeps them forever). */
  retentionDays: number;
  /** How often the retention job runs (AUDIT_LOG_RETENTION_INTERVAL_MS, one hour; 0 turns it off on this instance). */
  retentionIntervalMillis: number;
};

const nonNegative = { min: 0, expected: 'a non-negative integer' };

export function readAuditLogSettings(environment: NodeJS.ProcessEnv): AuditLogSettings {
  return {
    retentionDays: readIntegerSetting(environment, 'AUDIT_LOG_RETENTION_DAYS', nonNegative) ?? 365,
    retentionIntervalMillis: readIntegerSetting(environment, 'AUDIT_LOG_RETENTION_INTERVAL_MS', nonNegative) ?? 3_600_000,
  };
}
