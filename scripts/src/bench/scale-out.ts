import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { startHaproxy } from '@gatehouse/testing/haproxy';
import { ensureServerBuilt } from '../build/build-server.ts';

/**
 * Issue #19's figures (`BENCH_ONLY=scale-out`): sign-in, `/users/me` and refresh on the compiled
 * server (`node server/dist/src/main.js`, as `pnpm start` runs it) with WORKERS=1, with WORKERS=2, and
 * through HAProxy (`deploy/haproxy.cfg`) in front of three instances of WORKERS=1, all on one Postgres
 * database of their own; autocannon, `connections` connections, a 1 s warm-up then `seconds` s each.
 */
export type ScaleOutRow = { setup: string; endpoint: string; rps: number; p50: number; p99: number; errors: number; load: number };

const seed = {
  SEED_PROJECT_ID: '5ca1e0a7-be9c-4000-8000-00000000b019',
  SEED_PUBLISHABLE_CLIENT_KEY: `pck_${'4'.repeat(45)}`,
  SEED_SECRET_SERVER_KEY: `ssk_${'5'.repeat(45)}`,
  SEED_SUPER_SECRET_ADMIN_KEY: `sak_${'6'.repeat(45)}`,
};
const client = {
  'x-stack-access-type': 'client',
  'x-stack-project-id': seed.SEED_PROJECT_ID,
  'x-stack-publishable-client-key': seed.SEED_PUBLISHABLE_CLIENT_KEY,
};
const json = { 'content-type': 'application/json' };

type Instance = { child: ChildProcess; port: number; exited: Promise<unknown> };

async function startInstance(entry: string, env: Record<string, string>, port: number): Promise<Instance> {
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), EXAMPLE_APP_DIR: '', DASHBOARD_DIR: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk) => {
    errors += chunk;
  });
  let ended = false;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  void exited.then(() => {
    ended = true;
  });
  const started = Date.now();
  for (;;) {
    if (ended) throw new Error(`server exited:\n${errors}`);
    if (Date.now() - started > 120_000) {
      child.kill('SIGKILL');
      throw new Error(`server not ready within 120 s:\n${errors}`);
    }
    const ready = await fetch(`http://127.0.0.1:${port}/api/v1/ready`, { signal: AbortSignal.timeout(5_000) }).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ready) return { child, port, exited };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function stopInstance(instance: Instance): Promise<void> {
  instance.child.kill('SIGTERM');
  await Promise.race([instance.exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
  instance.child.kill('SIGKILL');
}

/** Waits until `count` server processes hold their cache listener on the database: every worker is up. */
async function waitForListeners(admin: pg.Client, database: string, count: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const { rows } = await admin.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where application_name = 'gatehouse-cache-listener' and datname = $1",
      [database],
    );
    if (rows[0]?.n === count) return;
    if (Date.now() - started > 120_000) throw new Error(`${rows[0]?.n} of ${count} server processes listening after 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function benchScaleOut(
  adminDatabaseUrl: string,
  options: { connections: number; seconds: number },
): Promise<{ rows: ScaleOutRow[]; loadBefore: number; loadAfter: number }> {
  const entry = await ensureServerBuilt();
  const database = `gatehouse_bench_scaleout_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminDatabaseUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const url = new URL(adminDatabaseUrl);
  url.pathname = `/${database}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-scaleout-'));
  const env = {
    DATABASE_URL: url.toString(),
    DATA_DIR: dataDir,
    SERVER_SECRET: 'the scale-out bench secret, 32 characters or more',
    // Throughput is the point: rate limits would only measure 429s.
    RATE_LIMITS: 'off',
    ...seed,
  };
  const basePort = 19100 + Math.floor(Math.random() * 400);
  const rows: ScaleOutRow[] = [];
  const loadBefore = loadavg()[0] as number;
  const running: Instance[] = [];
  let stopHaproxy: (() => Promise<void>) | undefined;
  try {
    // One user: signed up once, its tokens reused (refresh-token rotation is off by default).
    const first = await startInstance(entry, env, basePort);
    const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
    const password = 'scale-out bench password';
    const signUp = await fetch(`http://127.0.0.1:${basePort}/api/v1/auth/password/sign-up`, {
      method: 'POST',
      headers: { ...client, ...json },
      body: JSON.stringify({ email, password }),
      signal: AbortSignal.timeout(30_000),
    });
    if (signUp.status !== 200) throw new Error(`bench sign-up answered ${signUp.status}: ${await signUp.text()}`);
    const tokens = (await signUp.json()) as { access_token: string; refresh_token: string };
    await stopInstance(first);

    const measure = async (setup: string, base: string) => {
      const endpoints: Array<[string, string, NonNullable<autocannon.Options['requests']>[number]]> = [
        [
          'POST /auth/password/sign-in',
          '/api/v1/auth/password/sign-in',
          { method: 'POST', headers: { ...client, ...json }, body: JSON.stringify({ email, password }) },
        ],
        ['GET /users/me', '/api/v1/users/me', { headers: { ...client, 'x-stack-access-token': tokens.access_token } }],
        [
          'POST /auth/sessions/current/refresh',
          '/api/v1/auth/sessions/current/refresh',
          { method: 'POST', headers: { ...client, ...json, 'x-stack-refresh-token': tokens.refresh_token }, body: '{}' },
        ],
      ];
      for (const [endpoint, path, request] of endpoints) {
        const run = { url: `${base}${path}`, connections: options.connections, requests: [request] };
        await autocannon({ ...run, duration: 1 });
        const result = await autocannon({ ...run, duration: options.seconds });
        rows.push({
          setup,
          endpoint,
          rps: Math.round(result.requests.average),
          p50: result.latency.p50,
          p99: result.latency.p99,
          errors: result.non2xx + result.errors,
          load: Math.round((loadavg()[0] as number) * 10) / 10,
        });
      }
    };

    for (const workers of [1, 2]) {
      const instance = await startInstance(entry, { ...env, WORKERS: String(workers) }, basePort);
      running.push(instance);
      await waitForListeners(admin, database, workers);
      await measure(`WORKERS=${workers}`, `http://127.0.0.1:${basePort}`);
      await stopInstance(instance);
      running.pop();
    }

    const ports = [basePort + 1, basePort + 2, basePort + 3];
    for (const port of ports) running.push(await startInstance(entry, { ...env, WORKERS: '1' }, port));
    await waitForListeners(admin, database, 3);
    const lb = await startHaproxy(ports.map((port) => `127.0.0.1:${port}`) as [string, string, string]);
    stopHaproxy = lb.stop;
    await measure('HAProxy + 3 instances (WORKERS=1 each)', lb.baseUrl);
  } finally {
    await stopHaproxy?.();
    await Promise.all(running.map(stopInstance));
    await admin.query(`drop database if exists ${database} with (force)`).catch(() => undefined);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { rows, loadBefore, loadAfter: loadavg()[0] as number };
}

export function scaleOutRows(figures: Awaited<ReturnType<typeof benchScaleOut>>): string[] {
  return [
    `Scale-out (load average ${figures.loadBefore.toFixed(1)} before, ${figures.loadAfter.toFixed(1)} after):`,
    '| setup | endpoint | req/s | p50 ms | p99 ms | non-2xx | load |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...figures.rows.map((row) => `| ${row.setup} | ${row.endpoint} | ${row.rps} | ${row.p50} | ${row.p99} | ${row.errors} | ${row.load} |`),
  ];
}
