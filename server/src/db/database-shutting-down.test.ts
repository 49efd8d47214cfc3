import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { freePort } from '@gatehouse/testing/server-process';
import { type TestContext, type TestProject, createTestContext } from '@gatehouse/testing/test-context';

/**
 * A Postgres of the test's own, shut down "smart" while one outside session stays: it then refuses every
 * new connection with FATAL 57P03 ("the database system is shutting down", the code a starting Postgres
 * sends too) until that session ends. The server, whose pooled sessions Postgres ended, answers 503
 * DATABASE_UNAVAILABLE with Retry-After at once, and serves again once Postgres is started again.
 */
const bin = (name: string) => join('/usr/lib/postgresql/15/bin', name);
const asRoot = process.getuid?.() === 0;
const run = (command: string, args: string[]) =>
  execFileSync(asRoot ? 'runuser' : command, asRoot ? ['-u', 'postgres', '--', command, ...args] : args, { stdio: 'pipe' });

let dir: string;
let data: string;
let options: string;
let url: string;
let context: TestContext;
let project: TestProject;

const start = () => run(bin('pg_ctl'), ['-D', data, '-o', options, '-l', join(dir, 'postgres.log'), '-w', 'start']);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-pg-down-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  data = join(dir, 'data');
  run(bin('initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--locale=C']);
  const port = await freePort();
  options = `-p ${port} -h 127.0.0.1 -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  start();
  url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  context = await createTestContext({ databaseUrl: url, poolSize: 2, acquireTimeoutMs: 2_000 });
  project = await context.createProject();
}, 120_000);
afterAll(async () => {
  await context?.close();
  try {
    run(bin('pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
  } catch {
    // already stopped
  }
  rmSync(dir, { recursive: true, force: true });
});

it('answers 503 DATABASE_UNAVAILABLE while Postgres refuses connections (57P03) and serves again once it is started', async () => {
  const listUsers = () => context.request({ method: 'GET', url: '/api/v1/users', headers: project.headers.server });
  const kept = await context.request({
    method: 'POST',
    url: '/api/v1/users',
    headers: project.headers.server,
    payload: { display_name: 'kept' },
  });
  expect(kept.status).toBe(201);

  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  holder.on('error', () => {});
  run(bin('pg_ctl'), ['-D', data, '-m', 'smart', '-W', 'stop']);
  // The pool's sessions end; the holder's keeps Postgres in its shutdown, refusing new connections.
  await holder.query("select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'gatehouse'");
  const refused = await new pg.Client({ connectionString: url }).connect().catch((error: unknown) => error);
  expect((refused as { code?: string }).code).toBe('57P03');

  for (let attempt = 0; attempt < 3; attempt++) {
    const started = Date.now();
    const response = await listUsers();
    expect(Date.now() - started).toBeLessThan(2_000);
    expectError(response, 503, 'DATABASE_UNAVAILABLE');
    expect(response.headers['retry-after']).toBe('2');
  }
  expectError(await context.request({ method: 'GET', url: '/api/v1/ready' }), 503, 'SERVER_NOT_READY');

  // The last session ends: Postgres finishes its shutdown, and is started again on the same port.
  await holder.end();
  for (let attempt = 0; attempt < 300 && isRunning(); attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(isRunning()).toBe(false);
  start();
  const users = await listUsers();
  expect(users.status).toBe(200);
  expect(users.body.items.map((user: { display_name: string }) => user.display_name)).toContain('kept');
  expect((await context.request({ method: 'GET', url: '/api/v1/ready' })).status).toBe(200);
}, 90_000);

function isRunning(): boolean {
  try {
    run(bin('pg_ctl'), ['-D', data, 'status']);
    return true;
  } catch {
    return false;
  }
}
