import { randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenSubject } from '@gatehouse/testing/test-context';
import { SigningKeysService } from '../signing-keys/signing-keys.service.ts';
import { AccessTokenService, verifiedTokenMemoryMs } from './access-token.service.ts';

describe('AccessTokenService', () => {
  const service = new AccessTokenService(new SigningKeysService(randomBytes(32)), 'http://localhost:8102');
  const subject = tokenSubject('00000000-0000-4000-8000-000000000001');
  afterEach(() => vi.useRealTimers());

  it('signs identical claims of the same second once, and anything else anew', async () => {
    const now = Date.now();
    const [first, second] = await Promise.all([service.sign(subject, { now }), service.sign(subject, { now })]);
    expect(second).toBe(first);
    expect(await service.sign({ ...subject, name: 'Other' }, { now })).not.toBe(first);
    const later = await service.sign(subject, { now: now + 1_000 });
    expect(later).not.toBe(first);
    expect(decodeJwt(later).iat).toBe(Math.floor(now / 1000) + 1);
  });

  it('verifies what it signed, and never takes an expired token for valid', async () => {
    const token = await service.sign(subject);
    expect(await service.verify(token)).toMatchObject({ sub: subject.sub, aud: subject.project_id });
    const expired = await service.sign(subject, { now: Date.now() - 3_600_000 });
    await expect(service.verify(expired)).rejects.toMatchObject({ code: 'ACCESS_TOKEN_EXPIRED' });
    const tampered = `${token.slice(0, token.lastIndexOf('.'))}.${'A'.repeat(86)}`;
    await expect(service.verify(tampered)).rejects.toMatchObject({ code: 'UNPARSABLE_ACCESS_TOKEN' });
  });

  it('remembers verified tokens for a minute, not their whole 10-minute life: a steady stream levels off (issue #20 soak)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const fresh = new AccessTokenService(new SigningKeysService(randomBytes(32)), 'http://localhost:8102');
    const start = Date.now();
    // Ten minutes of sign-ins at 4 a second (one every 250 ms), each token verified once as a request would.
    let first = '';
    for (let step = 0; step < 2_400; step++) {
      vi.setSystemTime(start + step * 250);
      const token = await fresh.sign({ ...subject, name: `user ${step}` });
      first ||= token;
      await fresh.verify(token);
    }
    // A minute's worth (240) and the few expired ones each write drops as it goes; kept for 10 minutes it was 2 400.
    expect(verifiedTokenMemoryMs).toBe(60_000);
    expect(fresh.rememberedTokenCount).toBeGreaterThanOrEqual(240);
    expect(fresh.rememberedTokenCount).toBeLessThanOrEqual(260);
    // A token no longer remembered is verified again, not refused; once expired it is refused.
    vi.setSystemTime(start + 10 * 60_000);
    const late = await fresh.sign({ ...subject, name: 'late' });
    vi.setSystemTime(start + 11 * 60_000 + 1_000);
    expect(await fresh.verify(late)).toMatchObject({ sub: subject.sub, name: 'late' });
    await expect(fresh.verify(first)).rejects.toMatchObject({ code: 'ACCESS_TOKEN_EXPIRED' });
  }, 60_000);
});
