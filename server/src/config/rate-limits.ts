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
 * Production's limits, per client IP and per target email, per window. Sending codes is the tightest:
 * each one is an email to somebody's inbox. Checking codes is limited per IP (codes also die after 20
 * wrong tries).
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
  if (!perIp || !windowSeconds || (perEmail !== undefined && !(perEmail > 0)))
    throw new Error(`${name} must look like 30,10,60 (per IP, per email, window in seconds), got ${value}`);
  return perEmail === undefined ? { perIp, windowSeconds } : { perIp, perEmail, windowSeconds };
}

/**
 * Development mode's limits (`pnpm start` without NODE_ENV=production): an SDK's test suite run from
 * one machine signs up, signs in and sends codes hundreds of times a minute from one IP, and tries the
 * same address more than a person would (issue #29: Stack's own SDK tests tripped the 20 sign-ups a
 * minute). Still limits, so a runaway loop is stopped; RATE_LIMITS=strict brings production's back.
 */
export const developmentRateLimits: RateLimits = {
  'sign-in': { perIp: 1000, perEmail: 50, windowSeconds: 60, failuresOnly: true },
  'sign-up': { perIp: 1000, perEmail: 50, windowSeconds: 60 },
  'send-code': { perIp: 1000, perEmail: 50, windowSeconds: 60 },
  'check-code': { perIp: 1000, windowSeconds: 60 },
};

/**
 * The settings, read at start:
 * - `RATE_LIMITS`: unset or empty — production's limits (`defaultRateLimits`), or in development mode
 *   (DEVELOPMENT_MODE=true, which `pnpm start` sets unless NODE_ENV=production) the relaxed
 *   `developmentRateLimits`; `strict` — production's limits in any mode; `relaxed` — the development
 *   limits in any mode; `off` — no limits at all.
 * - `RATE_LIMIT_SIGN_IN`, `RATE_LIMIT_SIGN_UP`, `RATE_LIMIT_SEND_CODE`, `RATE_LIMIT_CHECK_CODE`:
 *   `perIp,perEmail,windowSeconds` (e.g. `30,10,60`; perEmail may be left empty, `30,,60`) replace
 *   that bucket's numbers on top of the chosen set (ignored with `off`).
 */
export function readRateLimits(env: NodeJS.ProcessEnv, developmentMode: boolean): RateLimits | null {
  const profile = env.RATE_LIMITS ?? '';
  if (profile === 'off') return null;
  if (!['', 'strict', 'relaxed'].includes(profile))
    throw new Error(`RATE_LIMITS must be off, strict or relaxed (or unset), got ${profile}`);
  const relaxed = profile === 'relaxed' || (profile === '' && developmentMode);
  const limits = structuredClone(relaxed ? developmentRateLimits : defaultRateLimits);
  for (const bucket of Object.keys(limits) as RateLimitBucket[]) {
    const name = `RATE_LIMIT_${bucket.replace('-', '_').toUpperCase()}`;
    const value = env[name];
    if (!value) continue;
    const { perIp, perEmail, windowSeconds } = parseLimit(name, value);
    limits[bucket] = { ...limits[bucket], perIp, perEmail, windowSeconds };
  }
  return limits;
}
