import { createHash } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDatabase } from '../../../server/src/db/create-database.ts';
import { migrateToLatest } from '../../../server/src/db/migrate.ts';
import { scheduleJob } from '../../../server/src/kernel/background-job.ts';
import { createServer, migrations } from '../../../server/src/services.ts';

export type WebhookDeliveryFigures = { latencyP50: number; latencyP99: number; perSecond: number; messages: number };

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/**
 * Webhook delivery to a local receiver with the default settings (one worker, 250 ms poll, batches
 * of 16): event-to-delivery latency (user created, committed → the receiver has the signed message)
 * over `latencyEvents` events 50 ms apart, then deliveries per second draining a backlog of
 * `backlog` events queued at once.
 */
export async function measureWebhookDelivery(databaseUrl: string, latencyEvents = 200, backlog = 2000): Promise<WebhookDeliveryFigures> {
  const database = await createDatabase({ databaseUrl, dataDir: '', poolSize: 10 });
  await migrateToLatest(database.db, migrations);
  const server = createServer(database.db, { publicUrl: 'http://127.0.0.1', serverSecret: createHash('sha256').update('bench').digest() });
  const { services } = server;
  const arrivals = new Map<string, number>();
  let received = 0;
  const receiver = createHttpServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received++;
      const data = JSON.parse(body).data as { display_name?: string };
      if (data.display_name) arrivals.set(data.display_name, performance.now());
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const project = await services.projects.create({ displayName: 'Webhook bench', configOverride: { 'domains.allowLocalhost': true } });
  await services.webhookEndpoints.create(project, {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`,
    event_types: ['user.created'],
  });
  const job = server.jobs.find((candidate) => candidate.name === 'webhook delivery');
  if (!job) throw new Error('no webhook delivery job');
  const running = scheduleJob(job, { info: () => {}, error: (fields) => console.error(fields) });
  const waitFor = async (count: number) => {
    while (received < count) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  try {
    const created = new Map<string, number>();
    for (let index = 0; index < latencyEvents; index++) {
      const name = `latency-${index}`;
      await services.users.create(project, { display_name: name }, 'server');
      created.set(name, performance.now());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await waitFor(latencyEvents);
    const latencies = [...created].map(([name, at]) => (arrivals.get(name) ?? Number.NaN) - at).sort((a, b) => a - b);

    // Queue a backlog while the worker cannot take it (in one transaction per event, as usual), then time the drain.
    await running.stop();
    for (let index = 0; index < backlog; index++) await services.users.create(project, { display_name: `backlog-${index}` }, 'server');
    const started = performance.now();
    const drain = scheduleJob(job, { info: () => {}, error: (fields) => console.error(fields) });
    await waitFor(latencyEvents + backlog);
    const seconds = (performance.now() - started) / 1000;
    await drain.stop();
    return {
      latencyP50: Math.round(percentile(latencies, 50)),
      latencyP99: Math.round(percentile(latencies, 99)),
      perSecond: Math.round(backlog / seconds),
      messages: latencyEvents + backlog,
    };
  } finally {
    await running.stop();
    receiver.close();
    await database.close();
  }
}
