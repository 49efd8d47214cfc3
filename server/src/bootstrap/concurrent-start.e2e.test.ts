import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../services.ts';
import { createDatabase } from '../db/create-database.ts';
import { freshDatabase, type ServerProcess, startServerProcess } from '@gatehouse/testing/server-process';

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('several instances starting together on one fresh database', () => {
  it('all become ready; migrations and the seeded projects are made once', async () => {
    const database = await freshDatabase();
    cleanups.push(database.drop);
    const demoId = '5ca1e0a7-0000-4000-8000-000000000019';
    const started = await Promise.allSettled(
      [1, 2, 3].map(() => startServerProcess({ DATABASE_URL: database.url, SEED_PROJECT_ID: demoId })),
    );
    const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    for (const server of servers) cleanups.push(server.cleanup);
    expect(
      started.filter((result) => result.status === 'rejected').map((result) => String((result as PromiseRejectedResult).reason)),
    ).toEqual([]);

    for (const server of servers as ServerProcess[]) {
      expect((await fetch(`${server.baseUrl}/api/v1/ready`)).status).toBe(200);
      expect(server.demo().id).toBe(demoId);
    }
    const db = await createDatabase({ databaseUrl: database.url, dataDir: '', poolSize: 1 });
    try {
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db.db);
      expect(applied.rows.map((row) => row.name)).toEqual(Object.keys(migrations).sort());
      const projects = await sql<{ id: string }>`select id from project order by id`.execute(db.db);
      expect(projects.rows.map((row) => row.id).sort()).toEqual([demoId, 'internal'].sort());
      const secrets = await sql<{ n: string }>`select count(*) as n from server_secret`.execute(db.db);
      expect(Number(secrets.rows[0]?.n)).toBeLessThanOrEqual(1);
    } finally {
      await db.close();
    }
  }, 240_000);
});
