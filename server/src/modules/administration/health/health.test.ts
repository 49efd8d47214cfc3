import { ServerNotReadyError } from '@gatehouse/protocol/errors';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDatabase } from '../../../db/create-database.ts';
import { handleOf } from '../../../db/handle.ts';
import { withTestContext } from '@gatehouse/testing/test-context';
import { HealthService } from './health.service.ts';

const env = withTestContext();

describe('operations probes', () => {
  it('GET /health answers ok without any header, and refuses unknown query fields', async () => {
    const response = await env.context.request({ url: '/api/v1/health' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
    expect((await env.context.request({ url: '/api/v1/health?verbose=1' })).body.code).toBe('SCHEMA_ERROR');
  });

  it('GET /ready answers ready on a migrated database', async () => {
    const response = await env.context.request({ url: '/api/v1/ready' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ready' });
    expect((await env.context.request({ url: '/api/v1/ready?x=1' })).body.code).toBe('SCHEMA_ERROR');
  });

  it('GET /ready answers 503 SERVER_NOT_READY while a migration this build knows is missing', async () => {
    const health = env.context.services.health;
    health.expectMigrations(['0000-baseline-never-run', ...(await appliedNames())]);
    try {
      const response = await env.context.request({ url: '/api/v1/ready' });
      expect(response.status).toBe(503);
      expect(response.body.code).toBe('SERVER_NOT_READY');
      expect(response.body.error).toContain('0000-baseline-never-run');
      expect(response.headers['x-stack-known-error']).toBe('SERVER_NOT_READY');
    } finally {
      health.expectMigrations(await appliedNames());
    }
    expect((await env.context.request({ url: '/api/v1/ready' })).status).toBe(200);
  });

  it('answers 503 when the database does not answer, and once draining', async () => {
    // Nothing listens on port 1: every connection attempt is refused.
    const unreachable = await createDatabase({ databaseUrl: 'postgres://gatehouse@127.0.0.1:1/none', dataDir: '', acquireTimeoutMs: 500 });
    try {
      await expect(new HealthService(handleOf(unreachable.db)).checkReadiness()).rejects.toThrow(ServerNotReadyError);
      await expect(new HealthService(handleOf(unreachable.db)).checkReadiness()).rejects.toThrow('The database does not answer.');
    } finally {
      await unreachable.close();
    }
    const draining = new HealthService(handleOf(env.context.database.db));
    await expect(draining.checkReadiness()).resolves.toBeUndefined();
    draining.startDraining();
    await expect(draining.checkReadiness()).rejects.toThrow('The server is shutting down.');
  });
});

async function appliedNames(): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(env.context.database.db);
  return rows.map((row) => row.name);
}
