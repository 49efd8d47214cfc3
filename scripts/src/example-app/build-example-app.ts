import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isBuildFresh, startBuilds } from '../build/freshness.mjs';
import { precompressWebApp } from '../build/precompress.ts';
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
  await withBuildLock(join(appDir, '.build-lock'), async () => {
    if (!isBuildFresh(name)) {
      const vite = join(appDir, 'node_modules/vite/bin/vite.js');
      // NODE_ENV is `test` under vitest, and Vite then bundles React's development build (a sign-in page of 160 KB gzip, not 94).
      const env = { ...process.env, NODE_ENV: 'production' };
      const build = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: appDir, stdio: 'inherit', env });
      if (build.status !== 0) throw new Error(`Building ${name} (${appDir}) failed (see the output above)`);
      // Compressed copies the platform sends as they are; the example app's first page is the one kept small (issue #20).
      await precompressWebApp(dist, { zopfli: name === 'example' });
      writeFileSync(startBuilds[name].output, `${new Date().toISOString()}\n`);
    }
  });
  return dist;
}

/** Runs `work` holding a lock directory, so that concurrent callers (tests, `pnpm start`) build once. */
export async function withBuildLock<T>(lock: string, work: () => Promise<T>): Promise<T> {
  while (!tryLock(lock)) await new Promise((done) => setTimeout(done, 200));
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
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
