import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpAnswer, haproxyConfig, httpRequest, type LoadBalancer, startHaproxy } from '@gatehouse/testing/haproxy';
import { freshDatabase, type ServerProcess, startServerProcess, waitFor } from '@gatehouse/testing/server-process';

/**
 * Issue #19's done-when: three instances on one Postgres behind Debian's HAProxy running the
 * repository's `deploy/haproxy.cfg`. Changes through one instance reach the others within 1 s, the
 * per-IP limits hold across them, kill -9 of one under sign-up load loses no acknowledged sign-up,
 * SIGTERM of one under load cuts no request.
 */
const seed = {
  SEED_PROJECT_ID: '1b0a1a2c-e000-4000-8000-00000000b019',
  SEED_PUBLISHABLE_CLIENT_KEY: `pck_${'1'.repeat(45)}`,
  SEED_SECRET_SERVER_KEY: `ssk_${'2'.repeat(45)}`,
  SEED_SUPER_SECRET_ADMIN_KEY: `sak_${'3'.repeat(45)}`,
};
const client = {
  'content-type': 'application/json',
  'x-stack-access-type': 'client',
  'x-stack-project-id': seed.SEED_PROJECT_ID,
  'x-stack-publishable-client-key': seed.SEED_PUBLISHABLE_CLIENT_KEY,
};
const admin = {
  'content-type': 'application/json',
  'x-stack-access-type': 'admin',
  'x-stack-project-id': seed.SEED_PROJECT_ID,
  'x-stack-super-secret-admin-key': seed.SEED_SUPER_SECRET_ADMIN_KEY,
};
const password = 'load balanced password';

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

let instances: ServerProcess[];
let lb: LoadBalancer;
beforeAll(async () => {
  const database = await freshDatabase();
  cleanups.push(database.drop);
  const env = {
    DATABASE_URL: database.url,
    ...seed,
    // The client IP comes from HAProxy's X-Forwarded-For; the per-IP limits are on and small.
    TRUST_PROXY: '127.0.0.1',
    RATE_LIMITS: '',
    RATE_LIMIT_SIGN_UP: '4,5,60',
    RATE_LIMIT_SIGN_IN: '4,10,60',
    SHUTDOWN_DELAY_SECONDS: '3',
    SHUTDOWN_TIMEOUT_SECONDS: '60',
  };
  const started = await Promise.allSettled([1, 2, 3].map(() => startServerProcess(env)));
  instances = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  for (const instance of instances) cleanups.push(instance.cleanup);
  if (instances.length < 3) throw (started.find((result) => result.status === 'rejected') as PromiseRejectedResult).reason;
  lb = await startHaproxy(instances.map((instance) => `127.0.0.1:${instance.port}`) as [string, string, string]);
  cleanups.push(lb.stop);
}, 180_000);

/** Each call is another client IP (127.1.x.y), so only the test of the limits meets them. */
let nextAddress = 0;
const freshAddress = () => {
  nextAddress++;
  return `127.1.${nextAddress >> 8}.${nextAddress & 255}`;
};

const json = (answer: HttpAnswer) => JSON.parse(answer.body) as Record<string, unknown>;
const post = (url: string, headers: Record<string, string>, body: unknown, localAddress = freshAddress()) =>
  httpRequest(url, { method: 'POST', headers, body: JSON.stringify(body), localAddress, timeoutMs: 60_000 });
const signUp = (email: string, localAddress?: string) =>
  post(`${lb.baseUrl}/api/v1/auth/password/sign-up`, client, { email, password }, localAddress);
const signIn = (email: string, localAddress?: string) =>
  post(`${lb.baseUrl}/api/v1/auth/password/sign-in`, client, { email, password }, localAddress);

/** Polls `check` every 20 ms until it holds; returns how many milliseconds that took (throws past `limitMs`). */
async function timeUntil(check: () => Promise<boolean>, limitMs: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > limitMs) throw new Error(`not seen within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Sign-ups through the load balancer from `connections` concurrent clients until `stop()` resolves;
 * returns every attempt's email and status (0: no answer).
 */
async function signUpLoad(connections: number, stop: Promise<unknown>): Promise<Array<{ email: string; status: number }>> {
  let stopping = false;
  void stop.then(() => {
    stopping = true;
  });
  const attempts: Array<{ email: string; status: number }> = [];
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (!stopping) {
        const email = `lb-${randomUUID()}@example.com`;
        const status = await signUp(email).then(
          (answer) => answer.status,
          () => 0,
        );
        attempts.push({ email, status });
      }
    }),
  );
  return attempts;
}

describe('three instances behind HAProxy on one Postgres', () => {
  it('spreads requests over the three instances', async () => {
    const answers = await Promise.all(Array.from({ length: 9 }, () => httpRequest(`${lb.baseUrl}/api/v1/health`, { timeoutMs: 10_000 })));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((answer) => answer.instance))).toEqual(new Set(['gatehouse-1', 'gatehouse-2', 'gatehouse-3']));
  }, 30_000);

  it('a key set revoked through one instance is refused on the others within 1 s, and a config change seen', async () => {
    const [a, b, c] = instances as [ServerProcess, ServerProcess, ServerProcess];
    const created = await post(`${a.baseUrl}/api/v1/internal/api-keys`, admin, {
      description: 'load balancer',
      expires_at_millis: Date.now() + 3_600_000,
      has_secret_server_key: true,
    });
    expect(created.status).toBe(200);
    const { id, secret_server_key: key } = json(created) as { id: string; secret_server_key: string };
    const withKey = { 'x-stack-access-type': 'server', 'x-stack-project-id': seed.SEED_PROJECT_ID, 'x-stack-secret-server-key': key };
    const statusOn = async (server: ServerProcess) =>
      (await httpRequest(`${server.baseUrl}/api/v1/projects/current`, { headers: withKey, timeoutMs: 10_000 })).status;
    const nameOn = async (server: ServerProcess) =>
      json(await httpRequest(`${server.baseUrl}/api/v1/projects/current`, { headers: client, timeoutMs: 10_000 })).display_name;
    // B and C hold the key set and the project in their caches.
    for (const server of [b, c]) {
      expect([await statusOn(server), await statusOn(server)]).toEqual([200, 200]);
      await nameOn(server);
    }

    const revoked = await httpRequest(`${a.baseUrl}/api/v1/internal/api-keys/${id}`, {
      method: 'PATCH',
      headers: admin,
      body: JSON.stringify({ revoked: true }),
      timeoutMs: 10_000,
    });
    expect(revoked.status).toBe(200);
    const refusedMs = await Promise.all([b, c].map((server) => timeUntil(async () => (await statusOn(server)) === 401, 1_000)));
    for (const ms of refusedMs) expect(ms).toBeLessThan(1_000);
    // Through the load balancer, whichever instance answers refuses it.
    for (let i = 0; i < 3; i++) {
      const answer = await httpRequest(`${lb.baseUrl}/api/v1/projects/current`, { headers: withKey, timeoutMs: 10_000 });
      expect(answer.status).toBe(401);
    }

    const renamed = await httpRequest(`${a.baseUrl}/api/v1/internal/projects/current`, {
      method: 'PATCH',
      headers: admin,
      body: JSON.stringify({ display_name: 'Renamed behind the load balancer' }),
      timeoutMs: 10_000,
    });
    expect(renamed.status).toBe(200);
    const seenMs = await Promise.all(
      [b, c].map((server) => timeUntil(async () => (await nameOn(server)) === 'Renamed behind the load balancer', 1_000)),
    );
    for (const ms of seenMs) expect(ms).toBeLessThan(1_000);
  }, 60_000);

  it('holds the per-IP sign-up and sign-in limits across the instances (4 a minute, not 3 × 4)', async () => {
    const address = freshAddress();
    const signUps = await Promise.all(Array.from({ length: 12 }, () => signUp(`limit-${randomUUID()}@example.com`, address)));
    // Spread over the instances (all three unless a check timed out on a loaded machine): each alone would allow 4.
    expect(new Set(signUps.map((answer) => answer.instance)).size).toBeGreaterThanOrEqual(2);
    expect(signUps.filter((answer) => answer.status === 200)).toHaveLength(4);
    expect(signUps.filter((answer) => answer.status === 429)).toHaveLength(8);

    const other = freshAddress();
    const email = `limit-${randomUUID()}@example.com`;
    expect((await signUp(email)).status).toBe(200);
    const signIns = await Promise.all(Array.from({ length: 12 }, () => signIn(email, other)));
    expect(new Set(signIns.map((answer) => answer.instance)).size).toBeGreaterThanOrEqual(2);
    expect(signIns.filter((answer) => answer.status === 200)).toHaveLength(4);
    expect(signIns.filter((answer) => answer.status === 429)).toHaveLength(8);
  }, 60_000);

  it('kill -9 of one instance under sign-up load: the others keep serving, every acknowledged sign-up signs in', async () => {
    const victim = instances[2] as ServerProcess;
    let killedAt = 0;
    const killed = (async () => {
      // Some sign-ups are through before the kill, and the load runs 3 s after it.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      victim.kill('SIGKILL');
      killedAt = Date.now();
      await victim.exited;
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    })();
    const attempts = await signUpLoad(6, killed);
    const acknowledged = attempts.filter((attempt) => attempt.status === 200);
    // Only the requests the killed instance held can fail (HAProxy answers 502 for those).
    const failed = attempts.filter((attempt) => attempt.status !== 200);
    expect(failed.length).toBeLessThanOrEqual(6);
    expect(failed.every((attempt) => attempt.status === 502)).toBe(true);
    expect(killedAt).toBeGreaterThan(0);
    expect(acknowledged.length).toBeGreaterThan(failed.length + 6);
    // After the kill the other two answered: the last sign-ups of every client succeeded.
    const recent = await Promise.all(Array.from({ length: 6 }, () => signUp(`lb-after-${randomUUID()}@example.com`)));
    expect(recent.map((answer) => answer.status)).toEqual(recent.map(() => 200));
    expect(recent.some((answer) => answer.instance === 'gatehouse-3')).toBe(false);

    const signIns = await Promise.all(acknowledged.map((attempt) => signIn(attempt.email).then((answer) => answer.status)));
    expect(signIns).toEqual(acknowledged.map(() => 200));
  }, 90_000);

  it('SIGTERM of one instance under sign-up load cuts no request', async () => {
    const leaving = instances[1] as ServerProcess;
    await waitFor(
      'the killed instance out of the rotation',
      async () => (await httpRequest(`${lb.baseUrl}/api/v1/health`, { timeoutMs: 10_000 })).instance,
      (instance) => instance !== 'gatehouse-3',
    );
    let exitCode: number | string | undefined;
    let duringDelay: number[] = [];
    const stopped = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      leaving.kill('SIGTERM');
      // SHUTDOWN_DELAY_SECONDS (3): not ready any more, but still serving, while HAProxy takes it out.
      await new Promise((resolve) => setTimeout(resolve, 500));
      duringDelay = await Promise.all(
        ['/api/v1/ready', '/api/v1/health'].map((path) =>
          httpRequest(`${leaving.baseUrl}${path}`, { timeoutMs: 2_000 }).then(
            (answer) => answer.status,
            () => 0,
          ),
        ),
      );
      exitCode = await Promise.race([leaving.exited, new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 60_000))]);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    })();
    const attempts = await signUpLoad(6, stopped);
    expect(exitCode).toBe(0);
    expect(duringDelay).toEqual([503, 200]);
    expect(attempts.filter((attempt) => attempt.status !== 200)).toEqual([]);
    expect(attempts.length).toBeGreaterThan(6);
    const signIns = await Promise.all(attempts.map((attempt) => signIn(attempt.email).then((answer) => answer.status)));
    expect(signIns).toEqual(attempts.map(() => 200));
  }, 120_000);
});

describe('the load balancer configuration the README shows', () => {
  it('is deploy/haproxy.cfg, the file this test runs (as the production guide shows it)', () => {
    const lines = (text: string) =>
      text
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith('#'));
    const config = lines(readFileSync(haproxyConfig, 'utf8'));
    const guide = readFileSync(new URL('../../../docs/guide/production.md', import.meta.url), 'utf8');
    const block = /```ini\n([\s\S]*?)```/.exec(guide)?.[1] ?? '';
    expect(lines(block)).toEqual(config);
  });
});
