import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isOutputFresh, startBuilds } from './freshness.mjs';

const root = mkdtempSync(join(tmpdir(), 'gatehouse-freshness-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Sets a file's modification time to `seconds` after the epoch (whole seconds: no filesystem rounding surprises). */
function touch(path: string, seconds: number) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, 'x');
  utimesSync(path, seconds, seconds);
}

describe('build freshness', () => {
  it('takes a web app as built only from the stamp written after its precompressed copies', () => {
    for (const name of ['example', 'dashboard'] as const) {
      expect(basename(startBuilds[name].output)).toBe('.build-complete');
      expect(basename(dirname(startBuilds[name].output))).toBe('dist');
      // A change to how web apps are built (or compressed) rebuilds them.
      expect(startBuilds[name].sources.some((source) => source.endsWith('scripts/src/build/precompress.ts'))).toBe(true);
    }
  });

  it('is fresh only when the output exists and is newer than every source', () => {
    const sources = join(root, 'src');
    const output = join(root, 'dist', '.build-complete');
    touch(join(sources, 'a.ts'), 1_000);
    touch(join(sources, 'nested', 'b.ts'), 2_000);
    // Vite wrote index.html, then the build was killed before the stamp: not fresh.
    touch(join(root, 'dist', 'index.html'), 3_000);
    expect(isOutputFresh({ output, sources: [sources] })).toBe(false);
    touch(output, 3_000);
    expect(isOutputFresh({ output, sources: [sources] })).toBe(true);
    touch(join(sources, 'nested', 'b.ts'), 4_000);
    expect(isOutputFresh({ output, sources: [sources] })).toBe(false);
    // Tests do not make a build stale.
    touch(output, 5_000);
    touch(join(sources, 'c.test.ts'), 6_000);
    expect(isOutputFresh({ output, sources: [sources] })).toBe(true);
  });
});
