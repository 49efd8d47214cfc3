import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchWithin, freshDatabase, type ServerProcess, startServerProcess } from '@gatehouse/testing/server-process';

/**
 * Issue #29: Stack's SDK test suite, run from one machine against `pnpm start`, tripped the per-IP
 * sign-up limit (20 a minute). Two real server processes with the default limits (RATE_LIMITS unset):
 * development mode (what `pnpm start` runs unless NODE_ENV=production) lets one IP sign up far more,
 * production mode still refuses the 21st sign-up of the minute.
 */
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

let development: ServerProcess;
let production: ServerProcess;
beforeAll(async () => {
  const start = async (env: Record<string, string>) => {
    const database = await freshDatabase();
    cleanups.push(database.drop);
    const server = await startServerProcess({ DATABASE_URL: database.url, RATE_LIMITS: '', ...env });
    cleanups.push(server.cleanup);
    return server;
  };
  [development, production] = await Promise.all([
    start({ DEVELOPMENT_MODE: 'true' }),
    start({ DEVELOPMENT_MODE: 'false', NODE_ENV: 'production' }),
  ]);
}, 180_000);

/** `count` password sign-ups of new addresses from this machine, five at a time; their statuses in order. */
async function signUps(server: ServerProcess, count: number): Promise<number[]> {
  const demo = server.demo();
  const statuses: number[] = [];
  for (let done = 0; done < count; done += 5) {
    const batch = Array.from({ length: Math.min(5, count - done) }, () =>
      fetchWithin(`${server.baseUrl}/api/v1/auth/password/sign-up`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-stack-access-type': 'client',
          'x-stack-project-id': demo.id,
          'x-stack-publishable-client-key': demo.keys.publishable_client_key,
        },
        body: JSON.stringify({ email: `sdk-${randomUUID().slice(0, 12)}@limits.test`, password: 'sdk test password' }),
      }).then((response) => response.status),
    );
    statuses.push(...(await Promise.all(batch)));
  }
  return statuses;
}

describe('default rate limits by mode', () => {
  it('development mode lets one machine sign up 60 users in a minute', { timeout: 120_000 }, async () => {
    expect(await signUps(development, 60)).toEqual(Array(60).fill(200));
    expect(development.output()).toMatch(/Rate limits {4}per IP a minute: 1000 sign-ups/);
  });

  it('production mode refuses the 21st sign-up of the minute from one IP', { timeout: 120_000 }, async () => {
    const statuses = await signUps(production, 25);
    expect(statuses.filter((status) => status === 200)).toHaveLength(20);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
    expect(production.output()).toMatch(/Rate limits {4}per IP a minute: 20 sign-ups/);
  });
});
