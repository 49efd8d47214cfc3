import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The example app's folder and its build output. */
export const exampleAppDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../examples/demo');
export const exampleAppDist = join(exampleAppDir, 'dist');

/** The sources whose change calls for a new build: the app and the packages it bundles. */
const sourceDirs = [
  join(exampleAppDir, 'src'),
  resolve(exampleAppDir, '../../react/src'),
  resolve(exampleAppDir, '../../client/src'),
  resolve(exampleAppDir, '../../protocol/src'),
];
const sourceFiles = [join(exampleAppDir, 'index.html'), join(exampleAppDir, 'vite.config.ts')];

/**
 * Builds the example app unless its build is newer than every source (`pnpm start` and the
 * end-to-end tests call this). A lock directory keeps concurrent callers from building twice.
 */
export async function ensureExampleAppBuilt(): Promise<string> {
  const lock = join(exampleAppDir, '.build-lock');
  while (!tryLock(lock)) await new Promise((done) => setTimeout(done, 200));
  try {
    if (!isBuildFresh()) {
      const vite = join(exampleAppDir, 'node_modules/vite/bin/vite.js');
      const build = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: exampleAppDir, stdio: 'inherit' });
      if (build.status !== 0) throw new Error('Building the example app failed (see the output above)');
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  return exampleAppDist;
}

function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch {
    // A lock left by a killed build is stale after a minute.
    if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 60_000) rmSync(lock, { recursive: true, force: true });
    return false;
  }
}

function isBuildFresh(): boolean {
  const index = join(exampleAppDist, 'index.html');
  if (!existsSync(index)) return false;
  const builtAt = statSync(index).mtimeMs;
  return newestSource() < builtAt;
}

function newestSource(): number {
  let newest = 0;
  const visit = (path: string) => {
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) if (!entry.endsWith('.test.ts') && !entry.endsWith('.test.tsx')) visit(join(path, entry));
    } else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const path of [...sourceDirs, ...sourceFiles]) if (existsSync(path)) visit(path);
  return newest;
}
