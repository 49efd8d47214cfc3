import { type SettingName, readIntegerSetting } from '../../../config/settings.ts';

/** How the outbox is delivered; read from the environment at start (a bad value stops it), or given by a test. */
export type EmailDeliverySettings = {
  /** How often the worker looks for due rows (EMAIL_POLL_INTERVAL_MS, 500; 0: this instance does not deliver queued rows). */
  pollIntervalMillis: number;
  /** How long a claim holds a row before another worker may take it over (EMAIL_LEASE_MS, 60 000). */
  leaseMillis: number;
  /** Attempts before a row is `failed` (EMAIL_MAX_ATTEMPTS, 5). */
  maxAttempts: number;
  /** The wait after the 1st failed attempt, doubled after each further one (EMAIL_RETRY_BASE_MS, 10 000), at most EMAIL_RETRY_MAX_MS (3 600 000). */
  retryBaseMillis: number;
  retryMaxMillis: number;
  /** Rows one worker claims at once (EMAIL_BATCH_SIZE, 64). */
  batchSize: number;
  /** SMTP connections of the pooled transport per mail server (EMAIL_SMTP_CONNECTIONS, 8). */
  smtpConnections: number;
  /**
   * Claimed batches one instance delivers at once (EMAIL_CLAIMS_IN_FLIGHT, 3): the next batch is
   * claimed while the previous ones are still on the wire, so one slow message does not hold the rest.
   */
  claimsInFlight?: number;
};

function integer(env: NodeJS.ProcessEnv, name: SettingName, fallback: number, minimum: number): number {
  return readIntegerSetting(env, name, { min: minimum, expected: `an integer of at least ${minimum}` }) ?? fallback;
}

export function readEmailDeliverySettings(env: NodeJS.ProcessEnv): Required<EmailDeliverySettings> {
  return {
    pollIntervalMillis: integer(env, 'EMAIL_POLL_INTERVAL_MS', 500, 0),
    leaseMillis: integer(env, 'EMAIL_LEASE_MS', 60_000, 1_000),
    maxAttempts: integer(env, 'EMAIL_MAX_ATTEMPTS', 5, 1),
    retryBaseMillis: integer(env, 'EMAIL_RETRY_BASE_MS', 10_000, 0),
    retryMaxMillis: integer(env, 'EMAIL_RETRY_MAX_MS', 3_600_000, 0),
    batchSize: integer(env, 'EMAIL_BATCH_SIZE', 64, 1),
    smtpConnections: integer(env, 'EMAIL_SMTP_CONNECTIONS', 8, 1),
    claimsInFlight: integer(env, 'EMAIL_CLAIMS_IN_FLIGHT', 3, 1),
  };
}
