import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { fetchWithin, freshDatabase, type ServerProcess, startServerProcess, waitFor } from '@gatehouse/testing/server-process';

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

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** The pids of the processes that logged an incoming request whose url contains `path` (pino logs carry the pid). */
function servedBy(server: ServerProcess, path: string): number[] {
  const pids: number[] = [];
  for (const line of server.output().split('\n')) {
    if (!line.includes('incoming request') || !line.includes(path)) continue;
    const pid = /"pid":(\d+)/.exec(line)?.[1];
    if (pid) pids.push(Number(pid));
  }
  return pids;
}

const password = 'correct horse battery staple';

describe('WORKERS=2: two processes of node:cluster on one port', () => {
  it('serve together, migrate once, aggregate their metrics, replace a killed worker and drain on SIGTERM', async () => {
    const database = await freshDatabase();
    cleanups.push(database.drop);
    const token = 'metrics token of the cluster test';
    // LOG_LEVEL info: each worker logs every request with its pid, which tells the test who served what.
    const server = await startServerProcess({
      DATABASE_URL: database.url,
      WORKERS: '2',
      METRICS_TOKEN: token,
      SHUTDOWN_TIMEOUT_SECONDS: '120',
      LOG_LEVEL: 'info',
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
    const listeners = async () =>
      (
        await admin.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where application_name = 'gatehouse-cache-listener' and datname = current_database()",
        )
      ).rows[0]?.n;
    await waitFor('listeners', listeners, (n) => n === 2);

    // New connections go to both workers in turn; a scrape on either covers both.
    const health = () =>
      fetchWithin(`${server.baseUrl}/api/v1/health`, { headers: { connection: 'close' } }, 10_000).then((response) => response.status);
    const statuses = await Promise.all(Array.from({ length: 40 }, health));
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(new Set(servedBy(server, '/api/v1/health'))).toEqual(new Set(workers));
    for (let i = 0; i < 4; i++) {
      const response = await fetchWithin(
        `${server.baseUrl}/api/v1/metrics`,
        { headers: { authorization: `Bearer ${token}`, connection: 'close' } },
        20_000,
      );
      expect(response.status).toBe(200);
      const text = await response.text();
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
    const signUp = (email: string) =>
      fetchWithin(
        `${server.baseUrl}/api/v1/auth/password/sign-up`,
        { method: 'POST', headers: client, body: JSON.stringify({ email, password }) },
        60_000,
      );
    const first = `cluster-${randomUUID()}@example.com`;
    expect((await signUp(first)).status).toBe(200);
    const signIns = await Promise.all(
      Array.from({ length: 4 }, () =>
        fetchWithin(
          `${server.baseUrl}/api/v1/auth/password/sign-in`,
          { method: 'POST', headers: client, body: JSON.stringify({ email: first, password }) },
          60_000,
        ).then((response) => response.status),
      ),
    );
    expect(signIns).toEqual([200, 200, 200, 200]);
    expect(new Set(servedBy(server, '/auth/password/sign-in')).size).toBe(2);

    // kill -9 of a worker: once the primary has seen it die, the other serves every new connection
    // (a connection handed over in the instant of the kill is lost with the worker: see README), and the
    // primary starts a replacement which joins the rotation.
    const killed = workers[0] as number;
    process.kill(killed, 'SIGKILL');
    await waitFor(
      'the primary noticing the killed worker',
      () => server.output().includes(`worker ${killed} exited (SIGKILL)`),
      (seen) => seen,
      20_000,
    );
    for (let i = 0; i < 10; i++) expect(await health()).toBe(200);
    const replaced = await waitFor(
      'replacement worker',
      () => childrenOf(primary),
      (pids) => pids.length === 2 && !pids.includes(killed),
    );
    expect(replaced).toContain(workers[1]);
    await waitFor('listeners after the replacement', listeners, (n) => n === 2);
    const newcomer = replaced.find((pid) => pid !== workers[1]) as number;
    await waitFor(
      'the replacement serving',
      async () => {
        await health();
        return servedBy(server, '/api/v1/health').includes(newcomer);
      },
      (served) => served,
      30_000,
    );

    // SIGTERM to the primary under a burst of sign-ups: every worker drains what it holds, so every
    // request answers 200, and everything exits 0. The signal goes once every request of a burst has
    // been received and some are still unanswered; on a busy machine a burst can be answered before the
    // test sees it received, so another, larger one is sent (the server is still running then).
    const emails: string[] = [];
    let requests: Promise<number | string>[] = [];
    let inFlightAtSignal = 0;
    for (let burst = 1; burst <= 4 && inFlightAtSignal === 0; burst++) {
      const burstEmails = Array.from({ length: 12 * burst }, () => `cluster-drain-${randomUUID()}@example.com`);
      emails.push(...burstEmails);
      const before = servedBy(server, '/auth/password/sign-up').length;
      let answered = 0;
      requests = [
        ...requests,
        ...burstEmails.map((email) =>
          signUp(email).then(
            (response) => {
              answered++;
              return response.status;
            },
            (error: unknown) => String(error),
          ),
        ),
      ];
      await waitFor(
        'every sign-up received',
        () => servedBy(server, '/auth/password/sign-up').length - before,
        (n) => n === burstEmails.length,
      );
      inFlightAtSignal = burstEmails.length - answered;
    }
    server.kill('SIGTERM');
    const results = await Promise.all(requests);
    expect(await Promise.race([server.exited, new Promise((resolve) => setTimeout(() => resolve('still running'), 60_000))])).toBe(0);
    expect(inFlightAtSignal).toBeGreaterThan(0);
    expect(results).toEqual(emails.map(() => 200));
    expect(childrenOf(primary)).toEqual([]);
    // Every acknowledged sign-up was committed.
    const stored = await admin.query<{ n: number }>(
      "select count(*)::int as n from contact_channel where type = 'email' and used_for_auth and value = any($1)",
      [emails],
    );
    expect(stored.rows[0]?.n).toBe(emails.length);
  }, 240_000);

  it('refuses WORKERS > 1 without DATABASE_URL (PGlite is one process) and a malformed WORKERS', async () => {
    await expect(startServerProcess({ DATABASE_URL: '', WORKERS: '2' })).rejects.toThrow(/WORKERS > 1 needs DATABASE_URL/);
    await expect(startServerProcess({ DATABASE_URL: '', WORKERS: 'two' })).rejects.toThrow(/WORKERS must be a whole number/);
  }, 60_000);
});
