import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../../db/create-database.ts';
import { scheduleJob } from '../../../kernel/background-job.ts';
import { createServer } from '../../../services.ts';
import { freshDatabase } from '@gatehouse/testing/server-process';
import { createTestContext, testPublicUrl, testServerSecret } from '@gatehouse/testing/test-context';
import { startReceiver } from '@gatehouse/testing/webhook-receiver';
import type { WebhookSettings } from './webhook-settings.ts';

/**
 * Delivery at throughput, each case on a database of its own (a worker claims every project's due
 * messages): kept-alive connections reused per endpoint within its cap, posts side by side, and
 * the fan-out trigger's NOTIFY waking the workers instead of their poll.
 */
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

const fast: Partial<WebhookSettings> = { attemptTimeoutMillis: 5_000, leaseMillis: 10_000, retryScheduleMillis: [100], maxAttempts: 3 };

/** A fresh database, the test's server on it (for the API) and a project whose endpoint posts to `receiverUrl`. */
async function setUp(receiverUrl: string) {
  const database = await freshDatabase();
  closers.push(database.drop);
  const context = await createTestContext({ databaseUrl: database.url, poolSize: 3 });
  closers.push(() => context.close());
  const project = await context.createProject({ 'domains.allowLocalhost': true });
  const created = await context.request({
    method: 'POST',
    url: '/api/v1/internal/webhooks/endpoints',
    headers: project.headers.admin,
    payload: { url: receiverUrl, event_types: ['user.created'] },
  });
  expect(created.status).toBe(201);
  return { databaseUrl: database.url, context, project };
}

/** A worker instance with its own pool on `databaseUrl`. */
async function worker(databaseUrl: string, webhooks: Partial<WebhookSettings>) {
  const database = await createDatabase({ databaseUrl, dataDir: '', poolSize: 4 });
  const server = createServer(database.db, {
    publicUrl: testPublicUrl,
    serverSecret: testServerSecret,
    settings: { webhooks, cacheInvalidation: { databaseUrl } },
  });
  closers.push(async () => {
    await server.services.webhookDelivery.close();
    await server.services.cacheInvalidation.stop();
    await database.close();
  });
  return server;
}

describe('webhook delivery throughput', () => {
  it('reuses kept-alive connections per endpoint and posts side by side, at most the endpoint cap at once', {
    timeout: 120_000,
  }, async () => {
    const receiver = await startReceiver(() => ({ status: 200, delayMillis: 20 }));
    closers.push(receiver.close);
    const { databaseUrl, context, project } = await setUp(receiver.url);
    const count = 60;
    for (let index = 0; index < count; index++)
      await context.services.users.create(project.project, { display_name: `U${index}` }, 'server');

    const { services } = await worker(databaseUrl, { ...fast, pollIntervalMillis: 0, batchSize: 16, endpointConnections: 3 });
    const deadline = Date.now() + 60_000;
    while (receiver.received.length < count && Date.now() < deadline) await services.webhookDelivery.deliverUntilIdle();
    expect(receiver.received).toHaveLength(count);
    expect(new Set(receiver.received.map((message) => message.headers['webhook-id'])).size).toBe(count);
    // One connection per post before; now the endpoint's few, kept alive between posts.
    expect(receiver.usage.connections).toBeLessThanOrEqual(3);
    expect(receiver.usage.maxInFlight).toBeLessThanOrEqual(3);
    expect(receiver.usage.maxInFlight).toBeGreaterThanOrEqual(2);
  });

  it('a queued message wakes the workers through NOTIFY, long before their poll', { timeout: 120_000 }, async () => {
    const receiver = await startReceiver();
    closers.push(receiver.close);
    const { databaseUrl, context, project } = await setUp(receiver.url);
    // The poll would look after 10 minutes; only the wake-up can deliver within the test.
    const server = await worker(databaseUrl, { ...fast, pollIntervalMillis: 600_000 });
    const listener = server.jobs.find((job) => job.name === 'cache invalidation listener');
    if (!listener) throw new Error('no cache invalidation listener job');
    const running = scheduleJob(listener, { info: () => {}, error: () => {} });
    closers.push(() => running.stop());
    await expect.poll(() => server.services.cacheInvalidation.listening, { timeout: 30_000 }).toBe(true);

    await context.services.users.create(project.project, { display_name: 'Awake' }, 'server');
    const [message] = await receiver.waitFor(1, 30_000);
    expect(JSON.parse(message?.body ?? '{}')).toMatchObject({ type: 'user.created', data: { display_name: 'Awake' } });
  });
});
