import { settingText } from './settings.ts';

/** The rate-limit buckets operations declare with `x-rate-limit`. */
export type RateLimitBucket = 'sign-in' | 'sign-up' | 'send-code' | 'check-code';

/**
 * `perEmail` counts every request to one address (sending codes: each is an email to somebody's
 * inbox), or, with `failuresOnly` (sign-in), only the failed attempts, per address and client IP
 * pair: ten wrong passwords from anywhere must not lock the rightful owner out. There, an address
 * also has a wider budget over all IPs (`perEmail` × 5 failures per window), past which every
 * attempt on it is slowed, progressively (see plugins/rate-limits.ts), never refused.
 */
export type RateLimit = { perIp: number; perEmail?: number; windowSeconds: number; failuresOnly?: boolean };
export type RateLimits = Record<RateLimitBucket, RateLimit>;

/**
 * Per client IP and per target email, per window. Sending codes is the tightest: each one is an
 * email to somebody's inbox. Checking codes is limited per IP (codes also die after 20 wrong tries).
 */
export const defaultRateLimits: RateLimits = {
  'sign-in': { ...parseLimit('RATE_LIMIT_SIGN_IN', settingText('RATE_LIMIT_SIGN_IN')), failuresOnly: true },
  'sign-up': parseLimit('RATE_LIMIT_SIGN_UP', settingText('RATE_LIMIT_SIGN_UP')),
  'send-code': parseLimit('RATE_LIMIT_SEND_CODE', settingText('RATE_LIMIT_SEND_CODE')),
  'check-code': parseLimit('RATE_LIMIT_CHECK_CODE', settingText('RATE_LIMIT_CHECK_CODE')),
};

/** `30,10,60`: per IP, per email (may be empty), window in seconds. */
function parseLimit(name: string, value: string): RateLimit {
  const [perIp, perEmail, windowSeconds] = value.split(',').map((part) => (part.trim() === '' ? undefined : Number(part)));
  if (!perIp || !windowSeconds || (perEmail !== undefined && !(perEmail > 0))) throw new Error(`${name} must look like 30,10,60`);
  return perEmail === undefined ? { perIp, windowSeconds } : { perIp, perEmail, windowSeconds };
}

/** `RATE_LIMIT_SIGN_IN=30,10,60` (per IP, per email, window in seconds); `RATE_LIMITS=off` turns them off. */
export function readRateLimits(env: NodeJS.ProcessEnv): RateLimits | null {
  if (env.RATE_LIMITS === 'off') return null;
  const limits = structuredClone(defaultRateLimits);
  for (const bucket of Object.keys(limits) as RateLimitBucket[]) {
    const name = `RATE_LIMIT_${bucket.replace('-', '_').toUpperCase()}`;
    const value = env[name];
    if (!value) continue;
    const { perIp, perEmail, windowSeconds } = parseLimit(name, value);
    limits[bucket] = { ...limits[bucket], perIp, perEmail, windowSeconds };
  }
  return limits;
}
