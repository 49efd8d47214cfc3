import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, type ServerProcess, startServerProcess } from '@gatehouse/testing/server-process';

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function signUp(server: ServerProcess, email: string) {
  const demo = server.demo();
  return fetch(`${server.baseUrl}/api/v1/auth/password/sign-up`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-stack-access-type': 'client',
      'x-stack-project-id': demo.id,
      'x-stack-publishable-client-key': demo.keys.publishable_client_key,
    },
    body: JSON.stringify({ email, password: 'correct horse battery staple' }),
  });
}

describe('SIGTERM under load', () => {
  it('finishes every request in flight, then closes the pool and exits 0', async () => {
    const database = await freshDatabase();
    cleanups.push(database.drop);
    // A generous timeout: on a loaded machine the drain must end by itself, not by the timeout cutting it.
    // LOG_LEVEL info: Fastify logs each request as it arrives, which tells the test when all have reached it.
    const server = await startServerProcess({ DATABASE_URL: database.url, SHUTDOWN_TIMEOUT_SECONDS: '120', LOG_LEVEL: 'info' });
    cleanups.push(server.cleanup);

    // Sign-ups hash with argon2id: 24 of them keep a 2-core machine busy for a while.
    const emails = Array.from({ length: 24 }, () => `drain-${randomUUID()}@example.com`);
    let answered = 0;
    const requests = emails.map((email) =>
      signUp(server, email).then(
        async (response) => {
          answered++;
          return { status: response.status, body: await response.text() };
        },
        (error: unknown) => ({ status: 0, body: String(error) }),
      ),
    );
    // Every request has reached the server before the signal. A fixed pause is not enough on a loaded
    // machine (connections not yet accepted are refused once the server stops listening, which is
    // right): wait until the server has logged each sign-up as received.
    const received = () =>
      server
        .output()
        .split('\n')
        .filter((line) => line.includes('incoming request') && line.includes('/auth/password/sign-up')).length;
    const waitStarted = Date.now();
    while (received() < emails.length && Date.now() - waitStarted < 60_000) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(received()).toBe(emails.length);
    const inFlightAtSignal = emails.length - answered;
    server.kill('SIGTERM');
    const results = await Promise.all(requests);
    const exitCode = await server.exited;

    expect(inFlightAtSignal).toBeGreaterThan(0);
    expect(results.filter((result) => result.status !== 200)).toEqual([]);
    expect(exitCode).toBe(0);
    // It stopped accepting: the port refuses connections.
    await expect(fetch(`${server.baseUrl}/api/v1/health`)).rejects.toThrow();

    // Every acknowledged sign-up was committed: a new instance signs each of them in.
    const again = await startServerProcess({ DATABASE_URL: database.url }, { dataDir: server.dataDir });
    cleanups.push(again.cleanup);
    const demo = again.demo();
    for (const email of emails.slice(0, 5)) {
      const response = await fetch(`${again.baseUrl}/api/v1/auth/password/sign-in`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-stack-access-type': 'client',
          'x-stack-project-id': demo.id,
          'x-stack-publishable-client-key': demo.keys.publishable_client_key,
        },
        body: JSON.stringify({ email, password: 'correct horse battery staple' }),
      });
      expect(response.status).toBe(200);
    }
    again.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 180_000);
});
