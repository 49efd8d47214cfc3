import { describe, expect, it } from 'vitest';
import { readEnv } from './env.ts';
import { defaultRateLimits, developmentRateLimits, readRateLimits } from './rate-limits.ts';

describe('rate-limit settings', () => {
  it("keeps production's limits outside development mode and relaxes them in development mode (what pnpm start sets unless NODE_ENV=production)", () => {
    expect(readEnv({ DEVELOPMENT_MODE: 'false' }).rateLimits).toEqual(defaultRateLimits);
    expect(readEnv({}).rateLimits).toEqual(defaultRateLimits);
    expect(readEnv({ DEVELOPMENT_MODE: 'true' }).rateLimits).toEqual(developmentRateLimits);
    // An SDK's test suite from one machine: hundreds of sign-ups a minute, where production allows 20.
    expect(defaultRateLimits['sign-up'].perIp).toBe(20);
    for (const bucket of ['sign-in', 'sign-up', 'send-code', 'check-code'] as const)
      expect(developmentRateLimits[bucket].perIp, bucket).toBeGreaterThanOrEqual(500);
  });

  it('RATE_LIMITS picks the set in any mode, RATE_LIMIT_* replace one bucket on top, and a typo stops the start', () => {
    expect(readRateLimits({ RATE_LIMITS: 'strict' }, true)).toEqual(defaultRateLimits);
    expect(readRateLimits({ RATE_LIMITS: 'relaxed' }, false)).toEqual(developmentRateLimits);
    expect(readRateLimits({ RATE_LIMITS: 'off' }, false)).toBeNull();
    expect(readRateLimits({ RATE_LIMITS: 'off', RATE_LIMIT_SIGN_UP: '1,1,1' }, true)).toBeNull();
    expect(readRateLimits({ RATE_LIMIT_SIGN_UP: '4,,30' }, false)?.['sign-up']).toEqual({
      perIp: 4,
      perEmail: undefined,
      windowSeconds: 30,
    });
    expect(readRateLimits({ RATE_LIMIT_SIGN_IN: '5,2,10' }, true)?.['sign-in']).toEqual({
      perIp: 5,
      perEmail: 2,
      windowSeconds: 10,
      failuresOnly: true,
    });
    expect(readRateLimits({ RATE_LIMIT_CHECK_CODE: '7,,60' }, true)?.['send-code']).toEqual(developmentRateLimits['send-code']);
    expect(() => readRateLimits({ RATE_LIMITS: 'on' }, false)).toThrow(/RATE_LIMITS must be off, strict or relaxed/);
    expect(() => readRateLimits({ RATE_LIMIT_SEND_CODE: 'ten' }, false)).toThrow(/RATE_LIMIT_SEND_CODE must look like/);
  });
});
