import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../../db/create-database.ts';
import { handleOf, inTransaction } from '../../../db/handle.ts';
import { CacheInvalidationService, invalidationTickMs } from './cache-invalidation.service.ts';

/**
 * Two instances' invalidation services on the run's Postgres, ticking as their job does: one listens,
 * the other's listener cannot connect (a closed port), so it relies on reading the table.
 */
const log = { info: () => {}, error: () => {} };
let database: DatabaseHandle;
let listening: CacheInvalidationService;
let polling: CacheInvalidationService;
const timers: NodeJS.Timeout[] = [];

function ticking(service: CacheInvalidationService): CacheInvalidationService {
  let running = false;
  timers.push(
    setInterval(() => {
      if (running) return;
      running = true;
      void service.tick(log).finally(() => {
        running = false;
      });
    }, invalidationTickMs),
  );
  return service;
}

function received(service: CacheInvalidationService, topic: string): Array<string | undefined> {
  const keys: Array<string | undefined> = [];
  service.on(topic, (key) => keys.push(key));
  return keys;
}

async function within(limitMs: number, check: () => boolean): Promise<number> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > limitMs) throw new Error(`not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return performance.now() - started;
}

beforeAll(async () => {
  const url = inject('databaseUrl');
  database = await createDatabase({ databaseUrl: url, dataDir: '', poolSize: 2 });
  const unreachable = new URL(url);
  unreachable.port = '1';
  listening = ticking(new CacheInvalidationService(handleOf(database.db), url));
  polling = ticking(new CacheInvalidationService(handleOf(database.db), unreachable.toString()));
  // Both have made their first sync (which drops everything: they start knowing nothing).
  const listeningAll = received(listening, 'test');
  const pollingAll = received(polling, 'test');
  await within(10_000, () => listening.listening && listeningAll.includes(undefined) && pollingAll.includes(undefined));
});

afterAll(async () => {
  for (const timer of timers) clearInterval(timer);
  await listening?.stop();
  await polling?.stop();
  await database?.close();
});

describe('cache invalidation between instances', () => {
  it('reaches the listening instance by NOTIFY, and the one whose listener is down by reading the rows, within 1 s', async () => {
    expect(listening.listening).toBe(true);
    expect(polling.listening).toBe(false);
    const topic = `topic-${randomUUID()}`;
    const atListening = received(listening, topic);
    const atPolling = received(polling, topic);

    const fromPolling = randomUUID();
    await polling.publish(topic, fromPolling);
    // The publisher applied it at once, and only once (its own notification is not applied again).
    expect(atPolling).toEqual([fromPolling]);
    expect(await within(1_000, () => atListening.includes(fromPolling))).toBeLessThan(1_000);

    const fromListening = randomUUID();
    await listening.publish(topic, fromListening);
    expect(await within(1_000, () => atPolling.includes(fromListening))).toBeLessThan(1_000);
    await new Promise((resolve) => setTimeout(resolve, 3 * invalidationTickMs));
    expect(atListening).toEqual([fromPolling, fromListening]);
    expect(atPolling).toEqual([fromPolling, fromListening]);
  });

  it('inside a transaction, sends nothing until the commit and nothing at all on rollback', async () => {
    const topic = `topic-${randomUUID()}`;
    const atPolling = received(polling, topic);
    const rolledBack = randomUUID();
    await inTransaction(handleOf(database.db), async () => {
      await listening.publish(topic, rolledBack);
      throw new Error('roll back');
    }).catch(() => undefined);
    const committed = randomUUID();
    await inTransaction(handleOf(database.db), async () => {
      await listening.publish(topic, committed);
    });
    await within(1_000, () => atPolling.includes(committed));
    expect(atPolling).toEqual([committed]);
  });

  it('without a Postgres URL (PGlite, one process) applies locally only', async () => {
    const local = new CacheInvalidationService(handleOf(database.db), undefined);
    const keys = received(local, 'test-local');
    await local.publish('test-local', 'k');
    await local.tick(log);
    expect(keys).toEqual(['k']);
    expect(local.shared).toBe(false);
  });
});
