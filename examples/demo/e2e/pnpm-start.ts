import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureServerBuilt } from '../../../scripts/src/build/build-server.ts';
import { ensureDashboardBuilt, ensureExampleAppBuilt } from '../../../scripts/src/example-app/build-example-app.ts';
import { freePort } from './demo-platform.ts';

const repositoryRoot = resolve(import.meta.dirname, '../../..');

export type StartedPlatform = {
  /** Everything `pnpm start` printed so far (the banner with its URLs and keys). */
  output: () => string;
  /** A URL the banner printed on the line starting with `label` (`Example app`, `Dashboard`). */
  printedUrl: (label: string) => string;
  stop: () => Promise<void>;
};

/**
 * The platform as a newcomer starts it: what `pnpm start` runs (scripts/start.mjs: the compiled server
 * serving the built example app and dashboard, development mode, PGlite in a fresh data directory, the
 * demo project seeded), on a free port. The builds are made first (under their locks, as the other
 * browser tests make them), so start.mjs finds them fresh. Resolves once the banner is printed.
 */
export async function startLikePnpmStart(): Promise<StartedPlatform> {
  await Promise.all([ensureServerBuilt(), ensureExampleAppBuilt(), ensureDashboardBuilt()]);
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-first-start-'));
  const port = await freePort();
  const environment: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  // What the newcomer's shell has: none of the test run's own settings.
  for (const name of ['DEVELOPMENT_MODE', 'NODE_ENV', 'EXAMPLE_APP_DIR', 'DASHBOARD_DIR', 'DATABASE_URL', 'PUBLIC_URL', 'RATE_LIMITS'])
    delete environment[name];
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: repositoryRoot,
    env: { ...environment, MALLOC_MMAP_THRESHOLD_: '32768' },
    stdio: 'pipe',
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`pnpm start printed no banner within 240 s (a loaded machine):\n${output}`)), 240_000);
    const poll = setInterval(() => {
      if (!output.includes('curl -H')) return;
      clearInterval(poll);
      clearTimeout(timer);
      ready();
    }, 50);
    void exited.then(() => {
      clearInterval(poll);
      clearTimeout(timer);
      fail(new Error(`pnpm start exited:\n${output}`));
    });
  });
  return {
    output: () => output,
    printedUrl(label) {
      const url = output.match(new RegExp(`^\\s+${label}\\s+(http\\S+)`, 'm'))?.[1];
      if (!url) throw new Error(`the banner prints no ${label} URL:\n${output}`);
      return url;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
