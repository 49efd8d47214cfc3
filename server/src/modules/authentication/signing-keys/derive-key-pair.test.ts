import { randomBytes, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveKeyPair } from './derive-key-pair.ts';

describe('deriveKeyPair', () => {
  const secret = randomBytes(32);

  it('derives the same P-256 pair from the same secret, project and audience', () => {
    const first = deriveKeyPair(secret, 'project-a', 'normal');
    const again = deriveKeyPair(Buffer.from(secret), 'project-a', 'normal');
    expect(again.publicJwk).toEqual(first.publicJwk);
    expect(first.publicJwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' });
    const signature = sign('sha256', Buffer.from('payload'), { key: first.privateKey, dsaEncoding: 'ieee-p1363' });
    expect(verify('sha256', Buffer.from('payload'), { key: again.publicKey, dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
  });

  it('derives different keys for another audience, project or secret', () => {
    const kids = new Set([
      deriveKeyPair(secret, 'project-a', 'normal').kid,
      deriveKeyPair(secret, 'project-a', 'anonymous').kid,
      deriveKeyPair(secret, 'project-a', 'restricted').kid,
      deriveKeyPair(secret, 'project-b', 'normal').kid,
      deriveKeyPair(randomBytes(32), 'project-a', 'normal').kid,
    ]);
    expect(kids.size).toBe(5);
  });
});
