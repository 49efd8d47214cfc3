import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The bound on a hand-written source file (issue #33); generated code and migrations are exempt. */
const maxLines = 400;
const root = fileURLToPath(new URL('../../../', import.meta.url));
const sourceFolders = ['server', 'client', 'react', 'dashboard', 'codegen', 'scripts', 'protocol', 'testing'];
const skippedFolders = new Set(['node_modules', 'generated', 'migrations', 'dist', 'test-artifacts', 'data']);

/** Every `.ts`/`.tsx` file under a folder, skipping generated code, migrations and build output. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return skippedFolders.has(entry.name) || entry.name.startsWith('.') ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function linesOf(path: string): number {
  const text = readFileSync(path, 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** The files over the bound that the allow-list does not name, as `path (lines)`. */
function oversized(files: string[], allowed: Record<string, string>): string[] {
  return files
    .map((path) => ({ path: relative(root, path).split('\\').join('/'), lines: linesOf(path) }))
    .filter(({ path, lines }) => lines > maxLines && !(path in allowed))
    .map(({ path, lines }) => `${path} (${lines} lines)`);
}

describe(`source files stay under ${maxLines} lines`, () => {
  const allowList = JSON.parse(readFileSync(new URL('./file-size-allow-list.json', import.meta.url), 'utf8')) as Record<string, string>;
  const allowed = Object.fromEntries(Object.entries(allowList).filter(([path]) => path !== '$comment'));

  it('no hand-written source file outside the allow-list is longer', () => {
    const files = sourceFolders.flatMap((folder) => sourceFiles(join(root, folder)));
    expect(files.length).toBeGreaterThan(500);
    expect(oversized(files, allowed)).toEqual([]);
  });

  it('every allow-list entry says why', () => {
    for (const [path, reason] of Object.entries(allowed)) expect(reason.length, path).toBeGreaterThan(20);
  });

  it('fails on a file over the bound (the check itself)', () => {
    const fixture = fileURLToPath(new URL('./fixtures/oversized-source.ts.txt', import.meta.url));
    expect(linesOf(fixture)).toBeGreaterThan(maxLines);
    expect(oversized([fixture], {})).toEqual([`scripts/src/architecture/fixtures/oversized-source.ts.txt (${linesOf(fixture)} lines)`]);
    expect(oversized([fixture], { 'scripts/src/architecture/fixtures/oversized-source.ts.txt': 'a fixture' })).toEqual([]);
  });
});
