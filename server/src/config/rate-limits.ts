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
  'sign-in': { perIp: 30, perEmail: 10, windowSeconds: 60, failuresOnly: true },
  'sign-up': { perIp: 20, perEmail: 5, windowSeconds: 60 },
  'send-code': { perIp: 10, perEmail: 3, windowSeconds: 60 },
  'check-code': { perIp: 30, windowSeconds: 60 },
};

/** `RATE_LIMIT_SIGN_IN=30,10,60` (per IP, per email, window in seconds); `RATE_LIMITS=off` turns them off. */
export function readRateLimits(env: NodeJS.ProcessEnv): RateLimits | null {
  if (env.RATE_LIMITS === 'off') return null;
  const limits = structuredClone(defaultRateLimits);
  for (const bucket of Object.keys(limits) as RateLimitBucket[]) {
    const value = env[`RATE_LIMIT_${bucket.replace('-', '_').toUpperCase()}`];
    if (!value) continue;
    const [perIp, perEmail, windowSeconds] = value.split(',').map((part) => (part.trim() === '' ? undefined : Number(part)));
    if (!perIp || !windowSeconds || (perEmail !== undefined && !(perEmail > 0)))
      throw new Error(`RATE_LIMIT_${bucket} must look like 30,10,60`);
    limits[bucket] = { ...limits[bucket], perIp, perEmail, windowSeconds };
  }
  return limits;
}
