import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ServerProcess, fetchWithin, freshDatabase, startServerProcess } from '@gatehouse/testing/server-process';

/**
 * The real server process (`src/main.ts`) on Postgres when Postgres ends its pooled sessions (a
 * restart, a failover, `pg_terminate_backend`, `idle_in_transaction_session_timeout`): it keeps
 * serving on new connections and says so on stderr. Before lost-connections.ts the first ended
 * session was an 'error' event nobody listened to, and the process died.
 */
let database: Awaited<ReturnType<typeof freshDatabase>>;
let server: ServerProcess;
let admin: pg.Client;

beforeAll(async () => {
  database = await freshDatabase();
  server = await startServerProcess({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: '3' });
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
}, 120_000);
afterAll(async () => {
  await admin?.end();
  server?.kill();
  if (server) await Promise.race([server.exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  server?.cleanup();
  await database?.drop();
});

it('keeps serving when Postgres ends its pooled sessions (here idle ones)', async () => {
  const demo = server.demo();
  const headers = {
    'content-type': 'application/json',
    'x-stack-access-type': 'client',
    'x-stack-project-id': demo.id,
    'x-stack-publishable-client-key': demo.keys.publishable_client_key,
  };
  const signUp = () =>
    fetchWithin(`${server.baseUrl}/api/v1/auth/password/sign-up`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: `lost-${randomUUID()}@example.com`, password: 'lost connections 123' }),
    });
  // Every connection of the pool opened (three sign-ups at once), then idle.
  for (const response of await Promise.all([signUp(), signUp(), signUp()])) expect(response.status).toBe(200);
  const sessions = async () =>
    (
      await admin.query<{ pid: number }>(
        "select pid from pg_stat_activity where application_name = 'gatehouse' and datname = current_database()",
      )
    ).rows.map((row) => row.pid);
  expect((await sessions()).length).toBeGreaterThanOrEqual(1);

  for (let round = 0; round < 2; round++) {
    await admin.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'gatehouse' and datname = current_database()",
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const answers = await Promise.all([signUp(), signUp(), signUp()]);
    expect(answers.map((response) => response.status)).toEqual([200, 200, 200]);
  }
  const exited = await Promise.race([server.exited, new Promise((resolve) => setTimeout(() => resolve('running'), 200))]);
  expect(exited, server.output()).toBe('running');
  expect(server.output()).toMatch(
    /database connection lost \(the pool opens a new one\): terminating connection due to administrator command/,
  );
  expect((await sessions()).length).toBeGreaterThanOrEqual(1);
}, 120_000);
