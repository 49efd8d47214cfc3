import { type SettingName, readIntegerSetting } from '../../../config/settings.ts';
import type { HostResolver } from '../../../lib/outbound/outbound-target.ts';

/** How delivery behaves; read from the environment at start (a bad value stops it), or given by a test. */
export type WebhookSettings = {
  /** How often the worker looks for due messages (WEBHOOK_POLL_INTERVAL_MS, 250; 0 turns delivery off on this instance). */
  pollIntervalMillis: number;
  /** The timeout of one attempt (WEBHOOK_ATTEMPT_TIMEOUT_MS, 15 000). */
  attemptTimeoutMillis: number;
  /** How long a claim holds a message before another worker may take it over (WEBHOOK_LEASE_MS; the timeout + 30 s). */
  leaseMillis: number;
  /** The waits after the 1st, 2nd, ... failed attempt; the last repeats (WEBHOOK_RETRY_SCHEDULE_MS, comma-separated). */
  retryScheduleMillis: number[];
  /** Attempts before a message is `failed` (WEBHOOK_MAX_ATTEMPTS, 12). */
  maxAttempts: number;
  /** An endpoint failing without a success this long is disabled (WEBHOOK_DISABLE_AFTER_MS, 5 days). */
  disableAfterMillis: number;
  /** Messages one worker claims and posts at once (WEBHOOK_BATCH_SIZE, 64). */
  batchSize: number;
  /** Claimed batches one instance posts at once (WEBHOOK_CLAIMS_IN_FLIGHT, 3): the next is claimed while the others are on the wire. */
  claimsInFlight?: number;
  /** Kept-alive connections, and posts on their way, per endpoint at most (WEBHOOK_ENDPOINT_CONNECTIONS, 16). */
  endpointConnections?: number;
  /** How endpoint hosts are resolved (the system resolver; a test points names where it wants). */
  resolve?: HostResolver;
};

/** 5 s, 5 min, 30 min, 2 h, 5 h, then every 10 h: 12 attempts span about 2.8 days. */
export const defaultRetryScheduleMillis = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000];

function integer(environment: NodeJS.ProcessEnv, name: SettingName, fallback: number, minimum: number): number {
  return readIntegerSetting(environment, name, { min: minimum, expected: `an integer of at least ${minimum}` }) ?? fallback;
}

export function readWebhookSettings(environment: NodeJS.ProcessEnv): WebhookSettings {
  const attemptTimeoutMillis = integer(environment, 'WEBHOOK_ATTEMPT_TIMEOUT_MS', 15_000, 1);
  const rawSchedule = environment.WEBHOOK_RETRY_SCHEDULE_MS;
  const retryScheduleMillis = rawSchedule ? rawSchedule.split(',').map((part) => Number(part.trim())) : defaultRetryScheduleMillis;
  if (retryScheduleMillis.length === 0 || retryScheduleMillis.some((wait) => !Number.isInteger(wait) || wait < 0)) {
    throw new Error(`WEBHOOK_RETRY_SCHEDULE_MS must be comma-separated non-negative integers, not ${JSON.stringify(rawSchedule)}`);
  }
  return {
    pollIntervalMillis: integer(environment, 'WEBHOOK_POLL_INTERVAL_MS', 250, 0),
    attemptTimeoutMillis,
    leaseMillis: integer(environment, 'WEBHOOK_LEASE_MS', attemptTimeoutMillis + 30_000, attemptTimeoutMillis + 1),
    retryScheduleMillis,
    maxAttempts: integer(environment, 'WEBHOOK_MAX_ATTEMPTS', 12, 1),
    disableAfterMillis: integer(environment, 'WEBHOOK_DISABLE_AFTER_MS', 5 * 86_400_000, 1),
    batchSize: integer(environment, 'WEBHOOK_BATCH_SIZE', 64, 1),
    claimsInFlight: integer(environment, 'WEBHOOK_CLAIMS_IN_FLIGHT', 3, 1),
    endpointConnections: integer(environment, 'WEBHOOK_ENDPOINT_CONNECTIONS', 16, 1),
  };
}
