import { randomUUID } from 'node:crypto';
import { type Server, type Socket, connect, createServer } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { freshDatabase } from '@gatehouse/testing/server-process';
import { type TestContext, type TestProject, createTestContext } from '@gatehouse/testing/test-context';
import { isConnectionFailure } from './connection-failure.ts';

/**
 * The server on a Postgres it reaches through a TCP relay the test controls: "down" closes the relay's
 * port (connect: ECONNREFUSED) and cuts every open connection (ECONNRESET / "Connection terminated
 * unexpectedly"), as a stopped or crashed Postgres does; "up" opens it again. And a request's backend
 * ended by `pg_terminate_backend` while it waits on a lock (57P01, what a Postgres shutting down sends).
 * Every API request during the outage answers a catalogued 503 DATABASE_UNAVAILABLE with Retry-After at
 * once (no hang), `/ready` says not ready, and the same server serves again once the database is back,
 * with every write it acknowledged kept. Before connection-failure.ts each of these was a 500.
 */
type Relay = { url: string; down: () => Promise<void>; up: () => Promise<void>; cut: () => void };

async function startRelay(target: string): Promise<Relay> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const backend = connect(Number(upstream.port || 5432), upstream.hostname);
        sockets.add(client).add(backend);
        client.pipe(backend).pipe(client);
        const end = () => {
          for (const socket of [client, backend]) {
            socket.destroy();
            sockets.delete(socket);
          }
        };
        client.on('error', end).on('close', end);
        backend.on('error', end).on('close', end);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server?.address();
        if (typeof address === 'object' && address) port = address.port;
        resolve();
      });
    });
  const cut = () => {
    for (const socket of sockets) socket.resetAndDestroy();
    sockets.clear();
  };
  await listen();
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    cut,
    down: () =>
      new Promise<void>((resolve) => {
        cut();
        server?.close(() => resolve());
      }),
    up: listen,
  };
}

let database: Awaited<ReturnType<typeof freshDatabase>>;
let relay: Relay;
let context: TestContext;
let project: TestProject;
let admin: pg.Client;

beforeAll(async () => {
  database = await freshDatabase();
  relay = await startRelay(database.url);
  context = await createTestContext({ databaseUrl: relay.url, poolSize: 3, acquireTimeoutMs: 2_000 });
  project = await context.createProject();
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
}, 120_000);
afterAll(async () => {
  await admin?.end();
  await relay?.up().catch(() => undefined);
  await context?.close();
  await relay?.down();
  await database?.drop();
});

const createUser = (displayName: string) =>
  context.request({ method: 'POST', url: '/api/v1/users', headers: project.headers.server, payload: { display_name: displayName } });
const listUsers = () => context.request({ method: 'GET', url: '/api/v1/users', headers: project.headers.server });

/** A catalogued 503 DATABASE_UNAVAILABLE in the envelope with both known-error headers and Retry-After. */
function expectUnavailable(response: Awaited<ReturnType<typeof listUsers>>) {
  expectError(response, 503, 'DATABASE_UNAVAILABLE');
  expect(response.headers['x-stack-known-error']).toBe('DATABASE_UNAVAILABLE');
  expect(response.headers['retry-after']).toBe('2');
  expect(response.body.error).toMatch(/database is unavailable/);
}

describe('Postgres unreachable (stopped, crashed, network cut)', () => {
  it('answers 503 DATABASE_UNAVAILABLE at once while it is down, /ready says not ready, and serves again once it is back', async () => {
    const kept = await createUser(`kept-${randomUUID()}`);
    expect(kept.status).toBe(201);

    await relay.down();
    for (const request of [listUsers, () => createUser('never stored'), listUsers]) {
      const started = Date.now();
      const response = await request();
      expect(Date.now() - started).toBeLessThan(2_000);
      expectUnavailable(response);
    }
    const ready = await context.request({ method: 'GET', url: '/api/v1/ready' });
    expectError(ready, 503, 'SERVER_NOT_READY');

    await relay.up();
    expect((await context.request({ method: 'GET', url: '/api/v1/ready' })).status).toBe(200);
    const users = await listUsers();
    expect(users.status).toBe(200);
    const names = users.body.items.map((user: { display_name: string }) => user.display_name);
    expect(names).toContain(kept.body.display_name);
    expect(names).not.toContain('never stored');
  }, 60_000);

  it('answers 503 DATABASE_UNAVAILABLE when the connection is cut while the request runs a statement', async () => {
    await admin.query('begin');
    await admin.query('lock table project_user in access exclusive mode');
    try {
      const pending = createUser('cut mid-statement');
      await waitForLockWaiter();
      relay.cut();
      expectUnavailable(await pending);
    } finally {
      await admin.query('rollback');
    }
    expect((await listUsers()).status).toBe(200);
  }, 60_000);
});

describe('Postgres ends the request’s session (shutdown, pg_terminate_backend: 57P01)', () => {
  it('answers 503 DATABASE_UNAVAILABLE, not 500, and the next request is served', async () => {
    await admin.query('begin');
    await admin.query('lock table project_user in access exclusive mode');
    try {
      const pending = createUser('terminated mid-statement');
      const pid = await waitForLockWaiter();
      await admin.query('select pg_terminate_backend($1)', [pid]);
      expectUnavailable(await pending);
    } finally {
      await admin.query('rollback');
    }
    const users = await listUsers();
    expect(users.status).toBe(200);
    expect(users.body.items.map((user: { display_name: string }) => user.display_name)).not.toContain('terminated mid-statement');
  }, 60_000);
});

describe('what is a connection failure', () => {
  it('is not a statement Postgres refused: those stay 500s', async () => {
    const refused = await admin.query('select * from no_such_table').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Error);
    expect(isConnectionFailure(refused)).toBe(false);
    const duplicate = await admin.query('select 1/0').catch((error: unknown) => error);
    expect(isConnectionFailure(duplicate)).toBe(false);
  });

  it('is a refused connection and a terminated session', async () => {
    const closed = await startRelay(database.url);
    await closed.down();
    const refused = new pg.Client({ connectionString: closed.url });
    expect(isConnectionFailure(await refused.connect().catch((error: unknown) => error))).toBe(true);

    const victim = new pg.Client({ connectionString: database.url });
    await victim.connect();
    victim.on('error', () => {});
    const pid = (await victim.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
    const sleeping = victim.query('select pg_sleep(30)').catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await admin.query('select pg_terminate_backend($1)', [pid]);
    const ended = await sleeping;
    expect((ended as { code?: string }).code).toBe('57P01');
    expect(isConnectionFailure(ended)).toBe(true);
    // The broken client refuses further statements: still a connection failure.
    expect(isConnectionFailure(await victim.query('select 1').catch((error: unknown) => error))).toBe(true);
    await victim.end().catch(() => undefined);
  });
});

/** The pid of this database's backend that waits on a lock (the request's statement), once there is one. */
async function waitForLockWaiter(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { rows } = await admin.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()",
    );
    if (rows[0]) return rows[0].pid;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no request waited on the lock');
}
