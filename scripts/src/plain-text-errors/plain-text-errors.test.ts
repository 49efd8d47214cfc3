import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPlainTextThrows, plainTextThrowsIn } from './find-plain-text-errors.ts';

const root = join(import.meta.dirname, '../../..');
type Entry = { status: number; message: string; stack: string | null };
type Listing = { count: number; sameAsStack: number; entries: Entry[] };
/** The served document (the bundle of openapi/v1.yaml), where third parties read the list. */
const listing = (JSON.parse(readFileSync(join(root, 'server/src/generated/openapi.json'), 'utf8')) as { 'x-plain-text-errors': Listing })[
  'x-plain-text-errors'
];
const key = (entry: { status: number; message: string }) => `${entry.status} ${entry.message}`;
const sorted = (keys: string[]) => [...keys].sort();

describe('the plain-text error channel', () => {
  it("names every `new PlainHttpError` of the server in the spec's x-plain-text-errors, and nothing else", () => {
    const throws = findPlainTextThrows(join(root, 'server/src'));
    const unlisted = throws.filter((found) => !listing.entries.some((entry) => key(entry) === key(found)));
    expect(
      unlisted.map((found) => `${found.file}:${found.line} ${key(found)}`),
      'a plain-text answer the spec does not justify: make it a catalogued error, or list it with its reason',
    ).toEqual([]);
    expect(sorted(throws.map(key))).toEqual(sorted(listing.entries.map(key)));
  });

  it('states the count and how many are Stack-compatible plain text', () => {
    expect(listing.count).toBe(listing.entries.length);
    expect(listing.sameAsStack).toBe(listing.entries.filter((entry) => entry.stack !== null).length);
  });

  it("keeps plain text only where Stack's own server answers plain text (no Gatehouse-own plain-text refusal)", () => {
    // Gatehouse's own refusals are catalogued codes (x-error-origin: gatehouse); the last ten were the OAuth callback's.
    expect(listing.entries.filter((entry) => entry.stack === null).map(key)).toEqual([]);
    expect(listing.count).toBeLessThanOrEqual(52);
  });

  it('finds a throw however it is written (so a new one cannot slip past)', () => {
    const source = [
      "import { PlainHttpError } from '../lib/plain-http-error.ts';",
      "export const a = () => { throw new PlainHttpError(400, 'One.'); };",
      'export const b = (id: string) =>',
      '  new PlainHttpError(',
      '    404,',
      '    `Thing $' + '{id}',
      '     is gone.`,',
      '  );',
      'export const c = () => new Error(`PlainHttpError(400, "not a throw")`);',
    ].join('\n');
    expect(plainTextThrowsIn('x.ts', source)).toEqual([
      { file: 'x.ts', line: 2, status: 400, message: "'One.'" },
      { file: 'x.ts', line: 4, status: 404, message: '`Thing $' + '{id} is gone.`' },
    ]);
  });
});
