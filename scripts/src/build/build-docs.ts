import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withBuildLock } from '../example-app/build-example-app.ts';
import { isBuildFresh, startBuilds } from './freshness.mjs';
import { precompressWebApp } from './precompress.ts';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const docsDir = join(repositoryRoot, 'docs');
/** The built site `pnpm start` serves at `/docs` (DOCS_DIR). */
export const docsDist = join(docsDir, '.vitepress/dist');

/**
 * Builds the documentation site with VitePress unless its build is newer than every page, sample and
 * its config (`pnpm start`, `pnpm build` and the docs tests call this); resolves to the built folder.
 */
export async function ensureDocsBuilt(): Promise<string> {
  await withBuildLock(join(docsDir, '.build-lock'), async () => {
    if (isBuildFresh('docs')) return;
    const vitepress = join(docsDir, 'node_modules/vitepress/bin/vitepress.js');
    const build = spawnSync(process.execPath, [vitepress, 'build', '.', '--logLevel', 'warn'], { cwd: docsDir, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('Building the documentation site failed (see the output above)');
    await precompressWebApp(docsDist, { zopfli: false });
    writeFileSync(startBuilds.docs.output, `${new Date().toISOString()}\n`);
  });
  return docsDist;
}
