import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';

/**
 * Issue #12, crash safety: the real server process under sign-up load is killed with SIGKILL, then
 * started again on the same data; every sign-up it had acknowledged (answered 200) signs in, then
 * the restarted server takes the next cycle's load. On Postgres (a database of its own) and on
 * PGlite (a data directory of its own).
 */
const repoRoot = new URL('../..', import.meta.url).pathname;
/** Kept small for the suite's time budget; KILL_CYCLES=5 for a longer run. */
const cycles = Number(process.env.KILL_CYCLES ?? 2);
const seed = {
  SEED_PROJECT_ID: '0b1c9d3e-5f7a-4c2b-8e6d-2a3b4c5d6e7f',
  SEED_PUBLISHABLE_CLIENT_KEY: `pck_${'d'.repeat(45)}`,
  SEED_SECRET_SERVER_KEY: `ssk_${'e'.repeat(45)}`,
  SEED_SUPER_SECRET_ADMIN_KEY: `sak_${'f'.repeat(45)}`,
};
const clientHeaders = {
  'content-type': 'application/json',
  'x-stack-access-type': 'client',
  'x-stack-project-id': seed.SEED_PROJECT_ID,
  'x-stack-publishable-client-key': seed.SEED_PUBLISHABLE_CLIENT_KEY,
};
const password = 'kill nine survivor';

const running: ChildProcess[] = [];
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const child of running) killGroup(child);
  for (const cleanup of cleanups) await cleanup();
});

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-(child.pid as number), 'SIGKILL');
  } catch {
    // already gone
  }
}

/** The server (server/src/main.ts through tsx, its own process group), ready once it prints its banner. */
async function startServer(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(join(repoRoot, 'node_modules/.bin/tsx'), ['server/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', RATE_LIMITS: 'off', ...seed, ...env },
    stdio: 'pipe',
    detached: true,
  });
  running.push(child);
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk;
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 90_000);
    const poll = setInterval(() => {
      if (output.includes('curl -H')) {
        clearInterval(poll);
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve();
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return child;
}

const post = (port: string, path: string, body: object) =>
  fetch(`http://127.0.0.1:${port}/api/v1${path}`, { method: 'POST', headers: clientHeaders, body: JSON.stringify(body) });

/** Signs up from `workers` loops until stopped; the emails whose sign-up was answered 200. */
function signUpLoad(port: string, workers: number) {
  const acknowledged: string[] = [];
  let stopped = false;
  const loops = Array.from({ length: workers }, async () => {
    while (!stopped) {
      const email = `crash-${randomUUID().slice(0, 12)}@example.com`;
      try {
        const response = await post(port, '/auth/password/sign-up', { email, password });
        if (response.status === 200) acknowledged.push(email);
        else if (!stopped) throw new Error(`sign-up answered ${response.status}: ${await response.text()}`);
      } catch (error) {
        if (!stopped) throw error;
      }
    }
  });
  return {
    acknowledged,
    stop: () => {
      stopped = true;
      return Promise.allSettled(loops);
    },
  };
}

/**
 * Load, SIGKILL mid-load, restart, and every sign-up acknowledged so far signs in; the restarted
 * server carries the next cycle's load. The totals across cycles.
 */
async function crashCycles(env: Record<string, string>): Promise<{ acknowledged: number; signedIn: number }> {
  const acknowledged: string[] = [];
  let signedIn = 0;
  const port = String(20_000 + Math.floor(Math.random() * 20_000));
  let server = await startServer({ ...env, PORT: port });
  for (let cycle = 0; cycle < cycles; cycle++) {
    const load = signUpLoad(port, 6);
    // Kill once a few sign-ups are through, with others in flight.
    const started = Date.now();
    while (load.acknowledged.length < 4 && Date.now() - started < 30_000) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 150));
    killGroup(server);
    const emails = [...load.acknowledged];
    await load.stop();
    expect(emails.length).toBeGreaterThanOrEqual(4);
    acknowledged.push(...emails);

    server = await startServer({ ...env, PORT: port });
    for (let index = 0; index < emails.length; index += 4) {
      const answers = await Promise.all(
        emails.slice(index, index + 4).map((email) => post(port, '/auth/password/sign-in', { email, password })),
      );
      for (const answer of answers) expect(answer.status, await answer.clone().text()).toBe(200);
      signedIn += answers.length;
    }
  }
  // The first cycle's sign-ups survived the later crashes too.
  const first = await Promise.all(acknowledged.slice(0, 4).map((email) => post(port, '/auth/password/sign-in', { email, password })));
  expect(first.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
  killGroup(server);
  return { acknowledged: acknowledged.length, signedIn };
}

describe('kill -9 under sign-up load', () => {
  it(`loses no acknowledged sign-up on Postgres (${cycles} cycles)`, async () => {
    const url = new URL(inject('databaseUrl'));
    const name = `gatehouse_crash_${randomUUID().slice(0, 8)}`;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    await admin.query(`create database ${name}`);
    cleanups.push(async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    });
    const own = new URL(url.toString());
    own.pathname = `/${name}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-crash-pg-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const totals = await crashCycles({ DATABASE_URL: own.toString(), DATA_DIR: dataDir });
    console.log(
      `kill -9 on Postgres: ${cycles} cycles, ${totals.acknowledged} acknowledged sign-ups, ${totals.signedIn} signed in after restart`,
    );
    expect(totals.signedIn).toBe(totals.acknowledged);
  }, 300_000);

  it(`loses no acknowledged sign-up on PGlite (${cycles} cycles)`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-crash-pglite-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const totals = await crashCycles({ DATA_DIR: dataDir, DATABASE_URL: '' });
    console.log(
      `kill -9 on PGlite: ${cycles} cycles, ${totals.acknowledged} acknowledged sign-ups, ${totals.signedIn} signed in after restart`,
    );
    expect(totals.signedIn).toBe(totals.acknowledged);
  }, 300_000);
});
