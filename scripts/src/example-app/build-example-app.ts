import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The web apps `pnpm start` serves on the platform's port: the example app at `/`, the dashboard at `/dashboard`. */
export const webApps = {
  example: join(repositoryRoot, 'examples/demo'),
  dashboard: join(repositoryRoot, 'dashboard'),
} as const;
export type WebAppName = keyof typeof webApps;

/** The example app's folder and its build output. */
export const exampleAppDir = webApps.example;
export const exampleAppDist = join(exampleAppDir, 'dist');

/** The packages every web app bundles besides its own sources. */
const sharedSourceDirs = ['react/src', 'client/src', 'protocol/src'].map((dir) => join(repositoryRoot, dir));

/** Builds the example app unless its build is fresh; resolves to its `dist` folder. */
export function ensureExampleAppBuilt(): Promise<string> {
  return ensureWebAppBuilt('example');
}

/** Builds the dashboard unless its build is fresh; resolves to its `dist` folder. */
export function ensureDashboardBuilt(): Promise<string> {
  return ensureWebAppBuilt('dashboard');
}

/**
 * Builds a web app with Vite unless its build is newer than every source (`pnpm start`, `pnpm test`
 * and the end-to-end tests call this). A lock directory keeps concurrent callers from building twice.
 */
export async function ensureWebAppBuilt(name: WebAppName): Promise<string> {
  const appDir = webApps[name];
  const dist = join(appDir, 'dist');
  const lock = join(appDir, '.build-lock');
  while (!tryLock(lock)) await new Promise((done) => setTimeout(done, 200));
  try {
    if (!isBuildFresh(appDir, dist)) {
      const vite = join(appDir, 'node_modules/vite/bin/vite.js');
      const build = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: appDir, stdio: 'inherit' });
      if (build.status !== 0) throw new Error(`Building ${name} (${appDir}) failed (see the output above)`);
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  return dist;
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

function isBuildFresh(appDir: string, dist: string): boolean {
  const index = join(dist, 'index.html');
  if (!existsSync(index)) return false;
  const builtAt = statSync(index).mtimeMs;
  const sources = [join(appDir, 'src'), join(appDir, 'index.html'), join(appDir, 'vite.config.ts'), ...sharedSourceDirs];
  return newestSource(sources) < builtAt;
}

function newestSource(paths: string[]): number {
  let newest = 0;
  const visit = (path: string) => {
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) if (!entry.endsWith('.test.ts') && !entry.endsWith('.test.tsx')) visit(join(path, entry));
    } else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const path of paths) if (existsSync(path)) visit(path);
  return newest;
}
