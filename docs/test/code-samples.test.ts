import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Code samples cannot rot: a page shows TypeScript only by including a file of `docs/samples/`
 * (`<<< @/samples/<file>#<region>`), which `pnpm typecheck` compiles against the workspace packages
 * (docs/tsconfig.json). So no page may hold a TypeScript or JavaScript block of its own, and every
 * include must name a file and region that exist.
 */
const docsRoot = resolve(import.meta.dirname, '..');
const pageFolders = ['guide', 'reference', 'architecture', 'protocol', '.'];

function pages(): string[] {
  return pageFolders.flatMap((folder) =>
    readdirSync(join(docsRoot, folder))
      .filter((name) => name.endsWith('.md'))
      .map((name) => join(folder, name)),
  );
}

describe('code samples in the docs', () => {
  it('are included from docs/samples, never written inline', () => {
    const inline = pages().flatMap((page) =>
      [...readFileSync(join(docsRoot, page), 'utf8').matchAll(/^```(ts|tsx|typescript|js|jsx|javascript)\b/gm)].map(
        (match) => `${page}: a \`\`\`${match[1]} block`,
      ),
    );
    expect(inline).toEqual([]);
  });

  it('include files and regions that exist', () => {
    const includes = pages().flatMap((page) =>
      [...readFileSync(join(docsRoot, page), 'utf8').matchAll(/^<<< @\/(samples\/[^#\s]+)(?:#(\S+))?/gm)].map((match) => ({
        page,
        file: match[1]!,
        region: match[2],
      })),
    );
    expect(includes.length).toBeGreaterThan(8);
    const broken = includes.filter(({ file, region }) => {
      const path = join(docsRoot, file);
      if (!existsSync(path)) return true;
      return region !== undefined && !readFileSync(path, 'utf8').includes(`// #region ${region}`);
    });
    expect(broken).toEqual([]);
  });

  it('are all compiled by pnpm typecheck', () => {
    const rootPackage = JSON.parse(readFileSync(join(docsRoot, '../package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(rootPackage.scripts.typecheck).toContain('tsc -p docs/tsconfig.json');
    const tsconfig = JSON.parse(readFileSync(join(docsRoot, 'tsconfig.json'), 'utf8')) as { include: string[] };
    expect(tsconfig.include).toContain('samples');
  });
});
