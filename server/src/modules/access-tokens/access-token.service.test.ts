import { randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { tokenSubject } from '../../testing/test-context.ts';
import { SigningKeysService } from '../signing-keys/signing-keys.service.ts';
import { AccessTokenService } from './access-token.service.ts';

describe('AccessTokenService', () => {
  const service = new AccessTokenService(new SigningKeysService(randomBytes(32)), 'http://localhost:8102');
  const subject = tokenSubject('00000000-0000-4000-8000-000000000001');

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
});
