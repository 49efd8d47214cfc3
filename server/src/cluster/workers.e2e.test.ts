import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, startServerProcess } from '../testing/server-process.ts';

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** The pids of the direct children of `parent` that run the server (its cluster workers; not tsx's esbuild). */
function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('main')) children.push(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return children.sort();
}

async function waitFor<T>(what: string, read: () => Promise<T> | T, ok: (value: T) => boolean, limitMs = 60_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() - started > limitMs) throw new Error(`${what}: still ${JSON.stringify(value)} after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('WORKERS=2: two processes of node:cluster on one port', () => {
  it('serve together, migrate once, aggregate their metrics, replace a killed worker and drain on SIGTERM', async () => {
    const database = await freshDatabase();
    cleanups.push(database.drop);
    const token = 'metrics token of the cluster test';
    const server = await startServerProcess({
      DATABASE_URL: database.url,
      WORKERS: '2',
      METRICS_TOKEN: token,
      SHUTDOWN_TIMEOUT_SECONDS: '60',
    });
    cleanups.push(server.cleanup);
    const primary = server.child.pid as number;
    const workers = await waitFor(
      'workers',
      () => childrenOf(primary),
      (pids) => pids.length === 2,
    );

    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    cleanups.push(() => admin.end());
    // Migrations ran once although two servers started together.
    const { rows } = await admin.query<{ name: string; n: string }>(
      'select name, count(*) as n from kysely_migration group by name having count(*) > 1',
    );
    expect(rows).toEqual([]);
    // Each worker is a whole server: it holds its own cache listener.
    const listeners = () =>
      admin.query(
        "select count(*)::int as n from pg_stat_activity where application_name = 'gatehouse-cache-listener' and datname = current_database()",
      );
    await waitFor(
      'listeners',
      async () => (await listeners()).rows[0].n as number,
      (n) => n === 2,
    );

    // New connections are shared between the workers; the metrics of any scrape cover both.
    const health = () => fetch(`${server.baseUrl}/api/v1/health`, { headers: { connection: 'close' } }).then((response) => response.status);
    const statuses = await Promise.all(Array.from({ length: 40 }, health));
    expect(statuses.every((status) => status === 200)).toBe(true);
    const scrape = async () => {
      const response = await fetch(`${server.baseUrl}/api/v1/metrics`, {
        headers: { authorization: `Bearer ${token}`, connection: 'close' },
      });
      expect(response.status).toBe(200);
      return response.text();
    };
    for (let i = 0; i < 4; i++) {
      const text = await scrape();
      expect(
        sample(text, 'gatehouse_http_request_duration_seconds_count{operation="getHealth",method="GET",status="200"}'),
      ).toBeGreaterThanOrEqual(40);
      expect(sample(text, 'gatehouse_cache_listener_up')).toBe(2);
    }

    // A sign-up on one worker signs in on either.
    const demo = server.demo();
    const client = {
      'content-type': 'application/json',
      connection: 'close',
      'x-stack-access-type': 'client',
      'x-stack-project-id': demo.id,
      'x-stack-publishable-client-key': demo.keys.publishable_client_key,
    };
    const credentials = JSON.stringify({ email: `cluster-${Date.now()}@example.com`, password: 'correct horse battery staple' });
    expect(
      (await fetch(`${server.baseUrl}/api/v1/auth/password/sign-up`, { method: 'POST', headers: client, body: credentials })).status,
    ).toBe(200);
    const signIns = await Promise.all(
      Array.from({ length: 4 }, () =>
        fetch(`${server.baseUrl}/api/v1/auth/password/sign-in`, { method: 'POST', headers: client, body: credentials }).then(
          (r) => r.status,
        ),
      ),
    );
    expect(signIns).toEqual([200, 200, 200, 200]);

    // kill -9 of a worker: the other keeps serving, and the primary starts a replacement.
    process.kill(workers[0] as number, 'SIGKILL');
    for (let i = 0; i < 10; i++) expect(await health()).toBe(200);
    const replaced = await waitFor(
      'replacement worker',
      () => childrenOf(primary),
      (pids) => pids.length === 2 && !pids.includes(workers[0] as number),
    );
    expect(replaced).toContain(workers[1]);
    await waitFor(
      'listeners after the replacement',
      async () => (await listeners()).rows[0].n as number,
      (n) => n === 2,
    );

    // SIGTERM to the primary: every worker drains, then everything exits 0.
    server.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(childrenOf(primary)).toEqual([]);
  }, 240_000);

  it('refuses WORKERS > 1 without DATABASE_URL (PGlite is one process) and a malformed WORKERS', async () => {
    await expect(startServerProcess({ DATABASE_URL: '', WORKERS: '2' })).rejects.toThrow(/WORKERS > 1 needs DATABASE_URL/);
    await expect(startServerProcess({ DATABASE_URL: '', WORKERS: 'two' })).rejects.toThrow(/WORKERS must be a whole number/);
  }, 60_000);
});
