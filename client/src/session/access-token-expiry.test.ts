import { describe, expect, it } from 'vitest';
import { testJwt } from '../testing/test-jwt.ts';
import { accessTokenExpiresAt, isValidFor } from './access-token-expiry.ts';

describe('access token expiry', () => {
  it('reads exp from a signed JWT without verifying it', async () => {
    const token = await testJwt(2_000_000_000_000, { name: 'Zoë ✓' });
    expect(accessTokenExpiresAt(token)).toBe(2_000_000_000_000);
    expect(isValidFor(token, 20_000, 2_000_000_000_000 - 20_001)).toBe(true);
    expect(isValidFor(token, 20_000, 2_000_000_000_000 - 20_000)).toBe(false);
  });

  it('treats unreadable tokens as expired', () => {
    for (const token of ['', 'not-a-jwt', 'a.%%%.c', `x.${btoa('{"exp":"soon"}')}.y`]) {
      expect(accessTokenExpiresAt(token)).toBeUndefined();
      expect(isValidFor(token, 0)).toBe(false);
    }
  });
});
