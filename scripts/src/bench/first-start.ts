import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Issue #20's first start (`BENCH_ONLY=first-start`): the README's start command on a fresh clone of the
 * committed HEAD, from spawning `pnpm start` to the first 200 on `/api/v1`. That start builds the
 * compiled server, the example app and the dashboard, creates the PGlite data folder (migrations,
 * the `internal` and demo projects) and listens. The install before it is timed apart: it depends on
 * the package store and the network, not on the product.
 */
export type FirstStartFigures = { installSeconds: number; firstStartSeconds: number; secondStartSeconds: number };

const pnpm = ['-y', 'pnpm@10'];

async function startUntilReady(cwd: string, port: number): Promise<{ child: ChildProcess; seconds: number; exited: Promise<unknown> }> {
  const started = performance.now();
  // Its own process group, so stopping it stops pnpm, the start script and the server it runs.
  const child = spawn('npx', [...pnpm, 'start'], {
    cwd,
    detached: true,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: '', RATE_LIMITS: 'off' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk) => {
    errors = (errors + chunk).slice(-4000);
  });
  let ended = false;
  const exited = new Promise((resolve) => child.once('exit', resolve)).then(() => {
    ended = true;
  });
  for (;;) {
    if (ended) throw new Error(`pnpm start exited:\n${errors}`);
    const ok = await fetch(`http://127.0.0.1:${port}/api/v1`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ok) return { child, seconds: (performance.now() - started) / 1000, exited };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function stopGroup(started: { child: ChildProcess; exited: Promise<unknown> }): Promise<void> {
  process.kill(-(started.child.pid as number), 'SIGTERM');
  await started.exited;
}

export async function benchFirstStart(repositoryRoot: string, port = 8690): Promise<FirstStartFigures> {
  const folder = mkdtempSync(join(tmpdir(), 'gatehouse-first-start-'));
  try {
    execFileSync('git', ['clone', '--quiet', '--no-hardlinks', repositoryRoot, folder], { stdio: 'ignore' });
    const installStarted = performance.now();
    execFileSync('npx', [...pnpm, 'install', '--frozen-lockfile', '--prefer-offline'], { cwd: folder, stdio: 'ignore' });
    const installSeconds = (performance.now() - installStarted) / 1000;
    const first = await startUntilReady(folder, port);
    await stopGroup(first);
    // The next start finds everything built and the data folder made: what a restart costs through pnpm.
    const second = await startUntilReady(folder, port);
    await stopGroup(second);
    return { installSeconds, firstStartSeconds: first.seconds, secondStartSeconds: second.seconds };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export const firstStartRows = (figures: FirstStartFigures): string[] => [
  '| figure | measured | target |',
  '|---|---:|---|',
  `| first \`pnpm start\` on a fresh clone to the first 200 on /api/v1 (builds the server, example app and dashboard; creates the PGlite data) | ${figures.firstStartSeconds.toFixed(1)} s | ≤ 20 s |`,
  `| the next \`pnpm start\` (built, data folder made; includes pnpm's own start-up) | ${figures.secondStartSeconds.toFixed(1)} s | — |`,
  `| \`pnpm install --frozen-lockfile\` before it (package store warm; not part of the target) | ${figures.installSeconds.toFixed(1)} s | — |`,
];
