import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type ServerProcess, startServerProcess } from '@gatehouse/testing/server-process';
import { listenerApplicationName } from './cache-invalidation.repository.ts';

/**
 * Two real server processes on one Postgres: a change made through A is seen on B within 1 s,
 * through B's LISTEN connection, and through the table when that connection is down.
 */
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

let a: ServerProcess;
let b: ServerProcess;
let databaseUrl: string;

beforeAll(async () => {
  const database = await freshDatabase();
  cleanups.push(database.drop);
  databaseUrl = database.url;
  a = await startServerProcess({ DATABASE_URL: database.url });
  cleanups.push(a.cleanup);
  b = await startServerProcess({ DATABASE_URL: database.url, SEED_PROJECT_ID: a.demo().id }, {});
  cleanups.push(b.cleanup);
}, 240_000);

function adminHeaders(server: ServerProcess): Record<string, string> {
  const demo = server.demo();
  return {
    'content-type': 'application/json',
    'x-stack-access-type': 'admin',
    'x-stack-project-id': demo.id,
    'x-stack-super-secret-admin-key': demo.keys.super_secret_admin_key,
  };
}

function serverKeyHeaders(server: ServerProcess, secretServerKey: string): Record<string, string> {
  return { 'x-stack-access-type': 'server', 'x-stack-project-id': server.demo().id, 'x-stack-secret-server-key': secretServerKey };
}

/** Polls `check` until it holds; returns the milliseconds it took (fails after `limitMs`). */
async function timeUntil(check: () => Promise<boolean>, limitMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > limitMs) throw new Error(`not seen within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function createServerKey(server: ServerProcess): Promise<{ id: string; secretServerKey: string }> {
  const response = await fetch(`${server.baseUrl}/api/v1/internal/api-keys`, {
    method: 'POST',
    headers: adminHeaders(server),
    body: JSON.stringify({ description: 'scale-out', expires_at_millis: Date.now() + 3_600_000, has_secret_server_key: true }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { id: string; secret_server_key: string };
  return { id: body.id, secretServerKey: body.secret_server_key };
}

async function projectStatusWith(server: ServerProcess, secretServerKey: string): Promise<number> {
  const response = await fetch(`${server.baseUrl}/api/v1/projects/current`, { headers: serverKeyHeaders(server, secretServerKey) });
  await response.arrayBuffer();
  return response.status;
}

async function displayNameOn(server: ServerProcess): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/v1/projects/current`, {
    headers: {
      'x-stack-access-type': 'client',
      'x-stack-project-id': server.demo().id,
      'x-stack-publishable-client-key': server.demo().keys.publishable_client_key,
    },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { display_name: string }).display_name;
}

async function rename(server: ServerProcess, displayName: string): Promise<void> {
  const response = await fetch(`${server.baseUrl}/api/v1/internal/projects/current`, {
    method: 'PATCH',
    headers: adminHeaders(server),
    body: JSON.stringify({ display_name: displayName }),
  });
  expect(response.status).toBe(200);
}

async function revoke(server: ServerProcess, keySetId: string): Promise<void> {
  const response = await fetch(`${server.baseUrl}/api/v1/internal/api-keys/${keySetId}`, {
    method: 'PATCH',
    headers: adminHeaders(server),
    body: JSON.stringify({ revoked: true }),
  });
  expect(response.status).toBe(200);
}

async function listenerPids(): Promise<number[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where application_name = $1 and datname = current_database()',
      [listenerApplicationName],
    );
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

async function terminateListeners(): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()',
      [listenerApplicationName],
    );
    return rowCount ?? 0;
  } finally {
    await client.end();
  }
}

describe('caches across instances (LISTEN/NOTIFY, versions as the fallback)', () => {
  it('each instance holds one listening connection', async () => {
    await timeUntil(async () => (await listenerPids()).length === 2, 10_000);
  }, 30_000);

  it('a key set revoked through A is refused on B within 1 s (B had it cached)', async () => {
    const { id, secretServerKey } = await createServerKey(a);
    expect(await projectStatusWith(b, secretServerKey)).toBe(200);
    expect(await projectStatusWith(b, secretServerKey)).toBe(200);
    await revoke(a, id);
    const tookMs = await timeUntil(async () => (await projectStatusWith(b, secretServerKey)) === 401, 1_000);
    expect(tookMs).toBeLessThan(1_000);
  }, 30_000);

  it('a config changed through A is seen on B within 1 s (B had the project cached)', async () => {
    const before = await displayNameOn(b);
    expect(await displayNameOn(b)).toBe(before);
    await rename(a, 'Renamed through A');
    const tookMs = await timeUntil(async () => (await displayNameOn(b)) === 'Renamed through A', 1_000);
    expect(tookMs).toBeLessThan(1_000);
  }, 30_000);

  it('with the listeners cut off, changes still reach the other instance within 1 s, and the listeners come back', async () => {
    await timeUntil(async () => (await listenerPids()).length === 2, 10_000);
    const { id, secretServerKey } = await createServerKey(b);
    expect(await projectStatusWith(a, secretServerKey)).toBe(200);
    expect(await displayNameOn(a)).toBe('Renamed through A');

    expect(await terminateListeners()).toBe(2);
    await revoke(b, id);
    await rename(b, 'Renamed through B');
    const revokedMs = await timeUntil(async () => (await projectStatusWith(a, secretServerKey)) === 401, 1_000);
    const renamedMs = await timeUntil(async () => (await displayNameOn(a)) === 'Renamed through B', 1_000);
    expect(revokedMs).toBeLessThan(1_000);
    expect(renamedMs).toBeLessThan(1_000);

    // Reconnected with backoff: both listen again, and NOTIFY carries the next change.
    await timeUntil(async () => (await listenerPids()).length === 2, 10_000);
    await rename(b, 'Renamed again through B');
    expect(await timeUntil(async () => (await displayNameOn(a)) === 'Renamed again through B', 1_000)).toBeLessThan(1_000);
  }, 60_000);
});
