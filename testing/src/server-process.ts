import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';

/**
 * Real server processes (`server/src/main.ts`, as `pnpm start` runs it) on a Postgres database of
 * their own: the scale-out tests start several, signal them and kill them.
 */
const serverDir = dirname(createRequire(import.meta.url).resolve('@gatehouse/server/package.json'));

/** An empty database on the run's Postgres server (dropped by `drop`), for tests that start from nothing. */
export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject('databaseUrl');
  const name = `gatehouse_fresh_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await client.end();
    },
  };
}

/** `fetch` that gives up after `ms` (a request to a killed or stuck process must fail the test, not hang it). */
export function fetchWithin(url: string, init: RequestInit = {}, ms = 30_000): Promise<Response> {
  return fetch(url, { ...init, signal: AbortSignal.timeout(ms) });
}

/** Polls `read` every 100 ms until `ok` holds; throws with the last value after `limitMs`. */
export async function waitFor<T>(what: string, read: () => Promise<T> | T, ok: (value: T) => boolean, limitMs = 60_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() - started > limitMs) throw new Error(`${what}: still ${JSON.stringify(value)} after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export type ServerProcess = {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  dataDir: string;
  /** Everything the process printed so far. */
  output: () => string;
  /** Resolves with the exit code (or signal name) once the process ended. */
  exited: Promise<number | string>;
  /** The demo project the process seeded: its id and keys. */
  demo: () => { id: string; keys: { publishable_client_key: string; secret_server_key: string; super_secret_admin_key: string } };
  kill: (signal?: NodeJS.Signals) => void;
  cleanup: () => void;
};

/**
 * Starts one server process; resolves once its `/api/v1/ready` answers 200 (or rejects with its output).
 * `entry`: the file node runs instead of the TypeScript sources (the compiled server, `dist/src/main.js`).
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { dataDir?: string; entry?: string } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'gatehouse-process-'));
  const child = spawn(process.execPath, options.entry ? [options.entry] : ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      RATE_LIMITS: 'off',
      SERVER_SECRET: 'a shared secret of the scale-out tests, 32+ chars',
      EXAMPLE_APP_DIR: '',
      DASHBOARD_DIR: '',
      ...env,
    },
    stdio: 'pipe',
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = Date.now();
  let ended: number | string | undefined;
  void exited.then((code) => {
    ended = code;
  });
  for (;;) {
    if (ended !== undefined) throw new Error(`server exited with ${ended}:\n${output}`);
    if (Date.now() - started > 90_000) {
      child.kill('SIGKILL');
      throw new Error(`server was not ready within 90 s:\n${output}`);
    }
    const ready = await fetchWithin(`${baseUrl}/api/v1/ready`, {}, 5_000).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    port,
    baseUrl,
    dataDir,
    output: () => output,
    exited,
    demo: () => JSON.parse(readFileSync(join(dataDir, 'demo-project.json'), 'utf8')),
    kill: (signal = 'SIGTERM') => {
      if (ended === undefined) child.kill(signal);
    },
    cleanup: () => {
      if (ended === undefined) child.kill('SIGKILL');
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
