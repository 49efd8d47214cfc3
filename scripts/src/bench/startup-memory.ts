import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { ensureServerBuilt } from '../build/build-server.ts';
import { startBuilds } from '../build/freshness.mjs';
import { type TransactionEpisode, watchTransactions } from './transaction-watch.ts';

/**
 * Issue #20's figures, on the compiled server as `pnpm start` runs it (`node server/dist/src/main.js`):
 * - start-up: from spawning the process to the first 200 on `/api/v1`, on an existing data folder
 *   (PGlite) or database (Postgres), median of 5 starts each;
 * - resident memory (`VmRSS` of /proc/<pid>/status): idle after start, after a burst of load, and its
 *   slope over a soak of mixed traffic (`BENCH_SOAK_SECONDS`, default 60), by least squares;
 * - the example app's JavaScript, gzip, as the browser downloads it for a first page.
 */
export type StartupMemoryFigures = {
  startupMs: { pglite: number[]; postgres: number[] };
  idleRssMb: { pglite: number; postgres: number };
  afterLoadRssMb: number;
  soak: {
    seconds: number;
    requests: number;
    errors: number;
    startRssMb: number;
    endRssMb: number;
    slopeMbPerMin: number;
    /** The slope after the first 2 minutes (V8's heap and the caches at their working size), on soaks of 4 minutes or more. */
    steadySlopeMbPerMin?: number;
  };
  bundle: { files: Array<{ file: string; gzipKb: number }>; initialGzipKb: number; signInGzipKb: number; signInFiles?: number };
  /** Transactions seen open on the server's database during the load and the soak (pg_stat_activity every 200 ms), longest idle first. */
  transactions: { samples: number; seen: number; longest: TransactionEpisode[] };
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

export type Started = { child: ChildProcess; baseUrl: string; ms: number; exited: Promise<unknown> };

export async function startCompiled(entry: string, env: Record<string, string>, port: number): Promise<Started> {
  const started = performance.now();
  const child = spawn(process.execPath, [entry], {
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      EXAMPLE_APP_DIR: '',
      DASHBOARD_DIR: '',
      RATE_LIMITS: 'off',
      // As `pnpm start` runs it (package.json): blocks of 32 KB and more go back to the OS when freed.
      MALLOC_MMAP_THRESHOLD_: '32768',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk) => {
    errors += chunk;
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (;;) {
    if (ended) throw new Error(`server exited:\n${errors}`);
    const ok = await fetch(`${baseUrl}/api/v1`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ok) return { child, baseUrl, ms: Math.round(performance.now() - started), exited };
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export async function stop(server: Started): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Five timed starts after one that creates the data (migrations, seeds), then the idle RSS of one more. */
async function startups(entry: string, env: Record<string, string>, port: number): Promise<{ ms: number[]; idleRssMb: number }> {
  await stop(await startCompiled(entry, env, port));
  const ms: number[] = [];
  for (let run = 0; run < 5; run++) {
    const server = await startCompiled(entry, env, port);
    ms.push(server.ms);
    await stop(server);
  }
  const server = await startCompiled(entry, env, port);
  await sleep(5_000);
  const idleRssMb = rssMb(server.child.pid as number);
  await stop(server);
  return { ms, idleRssMb };
}

/** Mixed traffic from `concurrency` loops: sign-in, /users/me, refresh, the project, a user list, a sign-up now and then. */
async function mixedTraffic(baseUrl: string, seconds: number, concurrency: number, onTick?: () => void) {
  const demoHeaders = (keys: DemoProject) => ({
    'content-type': 'application/json',
    'x-stack-project-id': keys.id,
  });
  const demo = JSON.parse(readFileSync(join(currentDataDir, 'demo-project.json'), 'utf8')) as DemoProject;
  const client = {
    ...demoHeaders(demo),
    'x-stack-access-type': 'client',
    'x-stack-publishable-client-key': demo.keys.publishable_client_key,
  };
  const server = { ...demoHeaders(demo), 'x-stack-access-type': 'server', 'x-stack-secret-server-key': demo.keys.secret_server_key };
  const email = `soak-${randomUUID()}@example.com`;
  const password = 'soak password 1234';
  await fetch(`${baseUrl}/api/v1/auth/password/sign-up`, { method: 'POST', headers: client, body: JSON.stringify({ email, password }) });
  let requests = 0;
  let errors = 0;
  const until = Date.now() + seconds * 1000;
  const loop = async (index: number) => {
    let tokens = { access_token: '', refresh_token: '' };
    for (let step = 0; Date.now() < until; step++) {
      const kind = step % 10;
      let response: Response;
      if (kind === 0) {
        const body =
          step % 200 === 0 ? { email: `soak-${index}-${randomBytes(6).toString('hex')}@example.com`, password } : { email, password };
        const path = step % 200 === 0 ? 'sign-up' : 'sign-in';
        response = await fetch(`${baseUrl}/api/v1/auth/password/${path}`, { method: 'POST', headers: client, body: JSON.stringify(body) });
        if (response.ok) tokens = (await response.json()) as typeof tokens;
        else await response.arrayBuffer();
      } else if (kind === 1 && tokens.refresh_token) {
        response = await fetch(`${baseUrl}/api/v1/auth/sessions/current/refresh`, {
          method: 'POST',
          headers: { ...client, 'x-stack-refresh-token': tokens.refresh_token },
          body: '{}',
        });
        await response.arrayBuffer();
      } else if (kind < 6 && tokens.access_token) {
        response = await fetch(`${baseUrl}/api/v1/users/me`, { headers: { ...client, 'x-stack-access-token': tokens.access_token } });
        await response.arrayBuffer();
      } else if (kind < 8) {
        response = await fetch(`${baseUrl}/api/v1/projects/current`, { headers: server });
        await response.arrayBuffer();
      } else {
        response = await fetch(`${baseUrl}/api/v1/users?limit=20`, { headers: server });
        await response.arrayBuffer();
      }
      requests++;
      if (response.status >= 400) errors++;
      onTick?.();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, index) => loop(index)));
  return { requests, errors };
}

type DemoProject = { id: string; keys: { publishable_client_key: string; secret_server_key: string } };
let currentDataDir = '';

/** Least-squares slope of RSS (MB) over time (minutes). */
function slope(samples: Array<[minutes: number, mb: number]>): number {
  const n = samples.length;
  const meanX = samples.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = samples.reduce((sum, [, y]) => sum + y, 0) / n;
  const numerator = samples.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
  const denominator = samples.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  return denominator === 0 ? 0 : numerator / denominator;
}

/**
 * The example app's JavaScript as a browser that accepts gzip downloads it from the platform (the
 * build's Zopfli copies, `scripts/src/build/precompress.ts`): `initialGzipKb`, what index.html
 * loads up front (its entry and the chunks the entry imports, which index.html preloads), and
 * `signInGzipKb`, that plus the chunks of the handler's sign-in page (`/handler/sign-in`: its own
 * chunk and what it imports, with the heaviest language's main messages), read from Vite's manifest
 * (`dist/.vite/manifest.json`).
 */
export function bundleSizes(): StartupMemoryFigures['bundle'] {
  const dist = join(startBuilds.example.output, '..');
  // The bytes the platform sends with gzip: the build's compressed copy (precompress.ts), the file itself where
  // the build found a copy would not be smaller, and for a build without copies what gzip would make of it.
  const sentWithGzip = (path: string) => {
    if (existsSync(`${path}.gz`)) return statSync(`${path}.gz`).size;
    return existsSync(`${path}.br`) ? statSync(path).size : gzipSync(readFileSync(path)).length;
  };
  const gzipKb = (file: string) => sentWithGzip(join(dist, file)) / 1024;
  const manifestPath = join(dist, '.vite/manifest.json');
  if (!existsSync(manifestPath)) return { files: [], initialGzipKb: Number.NaN, signInGzipKb: Number.NaN };
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<
    string,
    { file: string; name?: string; isEntry?: boolean; imports?: string[] }
  >;
  const closure = (keys: string[]) => {
    const files = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || files.has(chunk.file)) return;
      files.add(chunk.file);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    for (const key of keys) visit(key);
    return [...files].filter((file) => file.endsWith('.js'));
  };
  const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
  // The sign-in page's chunk (named by the example's vite.config.ts), and in every language its main messages (issue #37).
  const signInPage = Object.keys(manifest).filter(
    (key) => key.endsWith('/handler/pages/sign-in-page.tsx') || manifest[key]?.name === 'sign-in-page',
  );
  const mainMessages = Object.keys(manifest).filter(
    (key) => /\/generated\/i18n\/[a-zA-Z-]+\.main\.ts$/.test(key) && !key.includes('en-XA'),
  );
  const total = (files: string[]) => Math.round(files.reduce((sum, file) => sum + gzipKb(file), 0) * 10) / 10;
  const initial = closure(entries);
  // The heaviest language's: the budget holds in every one.
  const signIn = (mainMessages.length ? mainMessages : [''])
    .map((messages) => closure([...entries, ...signInPage, messages]))
    .reduce((heaviest, files) => (total(files) > total(heaviest) ? files : heaviest));
  const files = [...new Set(Object.values(manifest).map(({ file }) => file))]
    .filter((file) => file.endsWith('.js'))
    .map((file) => ({ file, gzipKb: Math.round(gzipKb(file) * 10) / 10 }));
  return { files, initialGzipKb: total(initial), signInGzipKb: signInPage.length ? total(signIn) : Number.NaN, signInFiles: signIn.length };
}

export async function benchStartupMemory(adminDatabaseUrl: string): Promise<StartupMemoryFigures> {
  const entry = await ensureServerBuilt();
  const port = 18900 + Math.floor(Math.random() * 500);
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-start-'));
  currentDataDir = dataDir;
  const databaseName = `gatehouse_bench_start_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminDatabaseUrl });
  await admin.connect();
  await admin.query(`create database ${databaseName}`);
  const databaseUrl = Object.assign(new URL(adminDatabaseUrl), { pathname: `/${databaseName}` }).toString();
  try {
    const pglite = await startups(entry, { DATA_DIR: dataDir }, port);
    const postgresDataDir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-start-pg-'));
    const postgres = await startups(entry, { DATA_DIR: postgresDataDir, DATABASE_URL: databaseUrl }, port);

    // Load, then a soak, on Postgres (the production set-up).
    currentDataDir = postgresDataDir;
    const server = await startCompiled(entry, { DATA_DIR: postgresDataDir, DATABASE_URL: databaseUrl }, port);
    const pid = server.child.pid as number;
    // Every transaction open on the server's database during the load and the soak, sampled every 200 ms.
    const watch = await watchTransactions(adminDatabaseUrl);
    await mixedTraffic(server.baseUrl, Number(process.env.BENCH_LOAD_SECONDS ?? 20), 32);
    const afterLoadRssMb = rssMb(pid);
    const soakSeconds = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
    const samples: Array<[number, number]> = [];
    const soakStart = Date.now();
    const sampler = setInterval(() => samples.push([(Date.now() - soakStart) / 60_000, rssMb(pid)]), 2_000);
    const soak = await mixedTraffic(server.baseUrl, soakSeconds, 8);
    clearInterval(sampler);
    const watched = await watch.stop();
    // `BENCH_TRANSACTIONS_FILE=<path>`: every transaction seen, as JSON (who held it, its last statement).
    if (process.env.BENCH_TRANSACTIONS_FILE) writeFileSync(process.env.BENCH_TRANSACTIONS_FILE, JSON.stringify(watched, null, 2));
    await stop(server);
    rmSync(postgresDataDir, { recursive: true, force: true });
    return {
      startupMs: { pglite: pglite.ms, postgres: postgres.ms },
      idleRssMb: { pglite: pglite.idleRssMb, postgres: postgres.idleRssMb },
      afterLoadRssMb,
      soak: {
        seconds: soakSeconds,
        ...soak,
        startRssMb: samples[0]?.[1] ?? Number.NaN,
        endRssMb: samples.at(-1)?.[1] ?? Number.NaN,
        slopeMbPerMin: Math.round(slope(samples) * 100) / 100,
        ...(soakSeconds >= 240 ? { steadySlopeMbPerMin: Math.round(slope(samples.filter(([minutes]) => minutes >= 2)) * 100) / 100 } : {}),
      },
      bundle: bundleSizes(),
      transactions: { samples: watched.samples, seen: watched.episodes.length, longest: watched.episodes.slice(0, 5) },
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await admin.query(`drop database if exists ${databaseName} with (force)`).catch(() => undefined);
    await admin.end();
  }
}

/** The figures as README table rows, each beside its target. */
export function startupMemoryRows(figures: StartupMemoryFigures): string[] {
  const { startupMs, idleRssMb, soak, bundle, transactions } = figures;
  const idlest = transactions.longest[0];
  const runs = (values: number[]) => values.join(' / ');
  return [
    '| figure | measured | target |',
    '|---|---:|---|',
    `| start-up to first 200 on /api/v1, PGlite, existing data (median of 5; runs ${runs(startupMs.pglite)} ms) | ${median(startupMs.pglite)} ms | ≤ 1500 ms |`,
    `| start-up to first 200 on /api/v1, Postgres, existing database (median of 5; runs ${runs(startupMs.postgres)} ms) | ${median(startupMs.postgres)} ms | ≤ 1000 ms |`,
    `| idle RSS, PGlite | ${idleRssMb.pglite} MB | ≤ 200 MB |`,
    `| idle RSS, Postgres | ${idleRssMb.postgres} MB | ≤ 120 MB |`,
    `| RSS after load (32 connections of mixed traffic) | ${figures.afterLoadRssMb} MB | ≤ 300 MB |`,
    `| RSS slope over a ${soak.seconds} s soak (8 connections, ${soak.requests} requests, ${soak.errors} ≥ 400; ${soak.startRssMb} → ${soak.endRssMb} MB) | ${soak.slopeMbPerMin} MB/min | no growth |`,
    ...(soak.steadySlopeMbPerMin === undefined
      ? []
      : [
          `| RSS slope of the same soak after its first 2 minutes (V8's heap and the caches at their working size) | ${soak.steadySlopeMbPerMin} MB/min | no growth |`,
        ]),
    `| longest \`idle in transaction\` during the load and the soak (pg_stat_activity every 200 ms: ${transactions.samples} samples, ${transactions.seen} transactions seen open${idlest ? `; ${idlest.applicationName || 'no application_name'}, last statement \`${idlest.lastQuery.replace(/\s+/g, ' ').trim().slice(0, 60)}\`` : ''}) | ${idlest?.idleInTransactionMs ?? 0} ms | < 1000 ms |`,
    `| example app JavaScript loaded up front by index.html, gzip (${bundle.files.length} chunks in all, split per page) | ${bundle.initialGzipKb} KB | — |`,
    `| example app JavaScript of \`/handler/sign-in\` (up front + the sign-in page's chunks + the heaviest language's words, ${bundle.signInFiles ?? 0} files), gzip | ${bundle.signInGzipKb} KB | ≤ 90 KB |`,
  ];
}
