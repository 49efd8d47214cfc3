import { crc32 } from 'node:zlib';
import { randomBase32 } from '../../../lib/random.ts';

/** The marker secret scanners look for (docs/protocol/entities.md: user and team API keys). */
const scannerMarker = '574ck4u7h';
const flagAlphabet = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * `<pk|sk>_<45 random base32><key id as 32 hex><user|team><flag>574ck4u7h<8 hex CRC32 of all before>`.
 * The flag encodes self-hosted (+1, always here) and public (+2).
 */
export function generateEndUserKey(options: { id: string; type: 'user' | 'team'; isPublic: boolean }): string {
  const flag = flagAlphabet[1 + (options.isPublic ? 2 : 0)];
  const body = `${options.isPublic ? 'pk' : 'sk'}_${randomBase32(45)}${options.id.replaceAll('-', '')}${options.type}${flag}${scannerMarker}`;
  return body + crc32(body).toString(16).padStart(8, '0');
}

/** The type a well-formed key claims (checksum verified), or undefined for anything else. */
export function parseEndUserKey(key: string): { type: 'user' | 'team' } | undefined {
  const match = /^(?:pk|sk)_[a-z2-7]{45}[0-9a-f]{32}(user|team)[a-z2-7]574ck4u7h([0-9a-f]{8})$/.exec(key);
  if (!match) return undefined;
  const body = key.slice(0, -8);
  if (crc32(body).toString(16).padStart(8, '0') !== match[2]) return undefined;
  return { type: match[1] as 'user' | 'team' };
}
