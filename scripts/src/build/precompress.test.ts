import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { precompressWebApp } from './precompress.ts';

const root = mkdtempSync(join(tmpdir(), 'gatehouse-precompress-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A built app: a script worth compressing, a tiny one, an image. */
function build(name: string): string {
  const dist = join(root, name);
  mkdirSync(join(dist, 'assets'), { recursive: true });
  const script = Array.from(
    { length: 2000 },
    (_, index) => `export const value${index} = ${JSON.stringify(`value number ${index * 7}`)};`,
  ).join('\n');
  writeFileSync(join(dist, 'assets', 'page.js'), script);
  writeFileSync(join(dist, 'assets', 'tiny.js'), 'export{};');
  writeFileSync(join(dist, 'assets', 'logo.png'), Buffer.alloc(4096, 7));
  return dist;
}

describe('precompressed copies of a built web app', () => {
  it('writes .gz and .br beside each compressible file that decode to it, none where it would not be smaller (a tiny file), none for images', async () => {
    const dist = build('zlib');
    const totals = await precompressWebApp(dist, { zopfli: false });
    const raw = readFileSync(join(dist, 'assets', 'page.js'));
    expect(gunzipSync(readFileSync(join(dist, 'assets', 'page.js.gz')))).toEqual(raw);
    expect(brotliDecompressSync(readFileSync(join(dist, 'assets', 'page.js.br')))).toEqual(raw);
    expect(existsSync(join(dist, 'assets', 'tiny.js.gz'))).toBe(false);
    expect(existsSync(join(dist, 'assets', 'logo.png.gz'))).toBe(false);
    expect(totals.files).toBe(2);
    expect(totals.rawBytes).toBe(raw.length + 'export{};'.length);
  });

  it('makes a smaller gzip stream with Zopfli than zlib at its best level, still plain gzip', async () => {
    const dist = build('zopfli');
    await precompressWebApp(dist, { zopfli: true });
    const raw = readFileSync(join(dist, 'assets', 'page.js'));
    const zopfli = readFileSync(join(dist, 'assets', 'page.js.gz'));
    expect(gunzipSync(zopfli)).toEqual(raw);
    expect(zopfli.length).toBeLessThan(gzipSync(raw, { level: 9 }).length);
  });
});
