import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDocsBuilt } from './build/build-docs.ts';
import { buildServer } from './build/build-server.ts';

/**
 * `pnpm build`: the production build.
 * - server: one ES module bundle, `server/dist/src/main.js` (esbuild; `pnpm start` runs it);
 * - protocol, client, react: ES modules with declarations in `<package>/dist` (tsc, one file per
 *   source file, so bundlers tree-shake them), which their `publishConfig` exports;
 * - docs: the documentation site, `docs/.vitepress/dist` (VitePress; skipped when fresh).
 * The workspace itself (tests, tsx, Vite) keeps importing the sources.
 */
const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const tsc = join(repositoryRoot, 'node_modules/typescript/bin/tsc');

/** Packages in dependency order: each one's build reads the declarations of those before it. */
export const libraryPackages = ['protocol', 'client', 'react'] as const;

export function buildLibrary(name: (typeof libraryPackages)[number]): void {
  const packageDir = join(repositoryRoot, name);
  rmSync(join(packageDir, 'dist'), { recursive: true, force: true });
  const result = spawnSync(process.execPath, [tsc, '-p', join(packageDir, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`tsc failed for ${name}`);
  rewriteDeclarationImports(join(packageDir, 'dist'));
}

/**
 * tsc rewrites `./x.ts` to `./x.js` in the JavaScript it emits but leaves the specifiers of type-only
 * imports in the declarations as written: point them at the emitted files too, so a consumer without
 * `allowImportingTsExtensions` resolves them.
 */
function rewriteDeclarationImports(dir: string): void {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) rewriteDeclarationImports(path);
    else if (entry.endsWith('.d.ts')) {
      const text = readFileSync(path, 'utf8');
      const rewritten = text.replace(/(from\s+|import\()(['"])(\.{1,2}\/[^'"]+)\.tsx?\2/g, '$1$2$3.js$2');
      if (rewritten !== text) writeFileSync(path, rewritten);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  await buildServer();
  console.log(`server: server/dist/src/main.js (${Date.now() - started} ms)`);
  for (const name of libraryPackages) {
    const begun = Date.now();
    buildLibrary(name);
    console.log(`${name}: ${name}/dist (${Date.now() - begun} ms)`);
  }
  const docsStarted = Date.now();
  await ensureDocsBuilt();
  console.log(`docs: docs/.vitepress/dist (${Date.now() - docsStarted} ms)`);
}
