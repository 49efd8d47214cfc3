import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AtRestCipher } from './at-rest-cipher.ts';

describe('AtRestCipher', () => {
  const serverSecret = randomBytes(32);

  it('seals under the current key, opens only in the same place, and passes values from before sealing through', () => {
    const cipher = new AtRestCipher(serverSecret);
    const sealed = cipher.seal('whsec_top-secret', 'webhook_endpoint.secret');
    expect(sealed).toMatch(/^enc:v1:[0-9a-f]{8}:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('top-secret');
    expect(cipher.seal('whsec_top-secret', 'webhook_endpoint.secret')).not.toBe(sealed);
    expect(cipher.isCurrent(sealed)).toBe(true);
    expect(cipher.open(sealed, 'webhook_endpoint.secret')).toBe('whsec_top-secret');
    expect(() => cipher.open(sealed, 'project.config_override')).toThrow();
    expect(cipher.open('legacy plain value', 'webhook_endpoint.secret')).toBe('legacy plain value');
    expect(cipher.isCurrent('legacy plain value')).toBe(false);
    // Another server secret (another deployment, or a dump's reader) cannot open it.
    expect(() => new AtRestCipher(randomBytes(32)).open(sealed, 'webhook_endpoint.secret')).toThrow(/unknown key/);
  });

  it('rotates: the old key still opens what it sealed, and only the new key counts as current', () => {
    const oldKey = 'the first encryption key, 32+ characters';
    const newKey = 'the second encryption key, 32+ characters';
    const sealedBefore = new AtRestCipher(serverSecret, { current: oldKey }).seal('smtp password', 'p');
    const rotated = new AtRestCipher(serverSecret, { current: newKey, previous: [oldKey] });
    expect(rotated.open(sealedBefore, 'p')).toBe('smtp password');
    expect(rotated.isCurrent(sealedBefore)).toBe(false);
    expect(rotated.isCurrent(rotated.seal('smtp password', 'p'))).toBe(true);
    expect(() => new AtRestCipher(serverSecret, { current: newKey }).open(sealedBefore, 'p')).toThrow(/unknown key/);
    expect(() => new AtRestCipher(serverSecret, { current: 'short' })).toThrow('ENCRYPTION_KEY must be at least 32 characters');
  });
});
