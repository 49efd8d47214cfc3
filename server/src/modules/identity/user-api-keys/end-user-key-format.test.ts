import { randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { generateEndUserKey, parseEndUserKey } from './end-user-key-format.ts';

/**
 * The user / team API key string (docs/protocol/entities.md "User / team API keys"):
 * `<pk|sk>_<45 base32><id as 32 hex><user|team><flag>574ck4u7h<8 hex CRC32 of everything before>`,
 * flag index = (self-hosted ? 1 : 0) + (public ? 2 : 0).
 */
const keyPattern = /^(sk|pk)_[a-z2-7]{45}([0-9a-f]{32})(user|team)([a-z2-7])574ck4u7h([0-9a-f]{8})$/;
const base32 = 'abcdefghijklmnopqrstuvwxyz234567';
const checksum = (text: string) => crc32(text).toString(16).padStart(8, '0');

/** The same key with the character at `index` replaced by another of its part's alphabet, so only the checksum can tell. */
function flip(key: string, index: number): string {
  const isHex = (index >= 48 && index < 80) || index >= key.length - 8;
  const alphabet = isHex ? '0123456789abcdef' : base32;
  const current = key[index] as string;
  const replacement = alphabet[(alphabet.indexOf(current) + 1) % alphabet.length] as string;
  return key.slice(0, index) + replacement + key.slice(index + 1);
}

describe('generateEndUserKey', () => {
  for (const type of ['user', 'team'] as const) {
    for (const isPublic of [false, true]) {
      it(`writes a ${isPublic ? 'public' : 'secret'} ${type} key in the documented format`, () => {
        const id = randomUUID();
        const key = generateEndUserKey({ id, type, isPublic });
        const match = keyPattern.exec(key);
        expect(match, key).not.toBeNull();
        const [, prefix, idHex, keyType, flag, sum] = match as RegExpExecArray;
        expect(prefix).toBe(isPublic ? 'pk' : 'sk');
        expect(idHex).toBe(id.replaceAll('-', ''));
        expect(keyType).toBe(type);
        // Self-hosted (+1) always; public (+2).
        expect(flag).toBe(isPublic ? 'd' : 'b');
        expect(flag).toBe(base32[1 + (isPublic ? 2 : 0)]);
        expect(sum).toBe(checksum(key.slice(0, -8)));
        expect(key).toHaveLength(3 + 45 + 32 + 4 + 1 + 9 + 8);
      });
    }
  }

  it('draws fresh randomness for every key, even of the same id', () => {
    const id = randomUUID();
    const keys = new Set(Array.from({ length: 20 }, () => generateEndUserKey({ id, type: 'user', isPublic: false })));
    expect(keys.size).toBe(20);
  });

  it('keeps a zero-padded eight-digit checksum', () => {
    for (let i = 0; i < 200; i++) {
      const key = generateEndUserKey({ id: randomUUID(), type: 'team', isPublic: i % 2 === 0 });
      expect(key.slice(-8)).toMatch(/^[0-9a-f]{8}$/);
      expect(parseInt(key.slice(-8), 16)).toBe(crc32(key.slice(0, -8)));
    }
  });
});

describe('parseEndUserKey', () => {
  it('round-trips the type of generated keys, public or not', () => {
    for (const type of ['user', 'team'] as const) {
      for (const isPublic of [false, true]) {
        expect(parseEndUserKey(generateEndUserKey({ id: randomUUID(), type, isPublic }))).toEqual({ type });
      }
    }
  });

  it('rejects a key with any single character changed: the checksum no longer matches', () => {
    const key = generateEndUserKey({ id: randomUUID(), type: 'user', isPublic: false });
    // In the random part, the id, the flag and the checksum itself.
    for (const index of [3, 20, 47, 48, 60, 79, 84, key.length - 8, key.length - 1]) {
      const tampered = flip(key, index);
      expect(tampered).not.toBe(key);
      expect(parseEndUserKey(tampered), `changed at ${index}`).toBeUndefined();
    }
  });

  it('rejects a swapped type or prefix unless the checksum is recomputed', () => {
    const key = generateEndUserKey({ id: randomUUID(), type: 'user', isPublic: false });
    const asTeam = key.replace(/user(?=[a-z2-7]574ck4u7h)/, 'team');
    expect(parseEndUserKey(asTeam)).toBeUndefined();
    const resigned = asTeam.slice(0, -8) + checksum(asTeam.slice(0, -8));
    expect(parseEndUserKey(resigned)).toEqual({ type: 'team' });
    expect(parseEndUserKey(`pk${key.slice(2)}`)).toBeUndefined();
  });

  it('rejects strings that are not shaped like a key', () => {
    const key = generateEndUserKey({ id: randomUUID(), type: 'team', isPublic: true });
    const body = (prefix: string, middle: string) => {
      const head = `${prefix}_${'a'.repeat(45)}${'0'.repeat(32)}${middle}574ck4u7h`;
      return head + checksum(head);
    };
    expect(parseEndUserKey(body('sk', 'userb'))).toEqual({ type: 'user' });
    for (const candidate of [
      '',
      'not a key',
      key.toUpperCase(),
      ` ${key}`,
      `${key}0`,
      key.slice(1),
      key.replace('574ck4u7h', '574ck4u7x'),
      body('ak', 'userb'),
      body('sk', 'userB'),
      body('sk', 'orgsb'),
      body('pck', 'userb'),
    ]) {
      expect(parseEndUserKey(candidate), candidate).toBeUndefined();
    }
  });
});
