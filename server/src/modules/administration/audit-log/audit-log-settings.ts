/** How long the audit log keeps entries; read from the environment at start (a bad value stops it), or given by a test. */
export type AuditLogSettings = {
  /** Entries older than this many days are removed (AUDIT_LOG_RETENTION_DAYS, 365; 0 keeps them forever). */
  retentionDays: number;
  /** How often the retention job runs (AUDIT_LOG_RETENTION_INTERVAL_MS, one hour; 0 turns it off on this instance). */
  retentionIntervalMillis: number;
};

function integer(environment: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = environment[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, not ${JSON.stringify(raw)}`);
  return value;
}

export function readAuditLogSettings(environment: NodeJS.ProcessEnv): AuditLogSettings {
  return {
    retentionDays: integer(environment, 'AUDIT_LOG_RETENTION_DAYS', 365),
    retentionIntervalMillis: integer(environment, 'AUDIT_LOG_RETENTION_INTERVAL_MS', 3_600_000),
  };
}
