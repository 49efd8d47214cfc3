import { createHash } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDatabase } from '../../../server/src/db/create-database.ts';
import { migrateToLatest } from '../../../server/src/db/migrate.ts';
import { scheduleJob } from '../../../server/src/kernel/background-job.ts';
import { createServer, migrations } from '../../../server/src/services.ts';

export type WebhookDeliveryFigures = {
  latencyP50: number;
  latencyP99: number;
  perSecond: number;
  messages: number;
  /** The backlog the two instances drained. */
  backlog: number;
  /** Messages received more than once (same webhook-id) over the run, two instances draining the backlog. */
  duplicates: number;
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/**
 * Webhook delivery to a local receiver with the default settings (the workers woken by the fan-out
 * trigger's NOTIFY through the cache-invalidation listener, the 250 ms poll as the fallback):
 * event-to-delivery latency (user created, committed → the receiver has the signed message) over
 * `latencyEvents` events 50 ms apart with one instance, then deliveries per second draining a
 * backlog of `backlog` events queued at once, by two instances on the same database (each message
 * must arrive once: duplicates are counted by webhook-id).
 */
export async function measureWebhookDelivery(
  databaseUrl: string,
  latencyEvents = 200,
  // Long enough that the drain's start (listeners connecting, the first claims) does not dominate at 1 500/s.
  backlog = Number(process.env.BENCH_WEBHOOK_BACKLOG ?? 10_000),
): Promise<WebhookDeliveryFigures> {
  const database = await createDatabase({ databaseUrl, dataDir: '', poolSize: 10 });
  await migrateToLatest(database.db, migrations);
  const serverSecret = createHash('sha256').update('bench').digest();
  // The listener needs the database's URL (it is how a server knows other instances may share it).
  const settings = { cacheInvalidation: { databaseUrl } };
  const server = createServer(database.db, { publicUrl: 'http://127.0.0.1', serverSecret, settings });
  const { services } = server;
  // The two instances that drain the backlog, on pools of their own.
  const drainDatabases = [
    await createDatabase({ databaseUrl, dataDir: '', poolSize: 10 }),
    await createDatabase({ databaseUrl, dataDir: '', poolSize: 10 }),
  ];
  const drainers = drainDatabases.map((drainDatabase) =>
    createServer(drainDatabase.db, { publicUrl: 'http://127.0.0.1', serverSecret, settings }),
  );
  const arrivals = new Map<string, number>();
  const seen = new Map<string, number>();
  let received = 0;
  const receiver = createHttpServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received++;
      const id = String(request.headers['webhook-id']);
      seen.set(id, (seen.get(id) ?? 0) + 1);
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
  const jobOf = (instance: typeof server, name: string) => {
    const job = instance.jobs.find((candidate) => candidate.name === name);
    if (!job) throw new Error(`no ${name} job`);
    return job;
  };
  const log = { info: () => {}, error: (fields: unknown) => console.error(fields) };
  const running = [scheduleJob(jobOf(server, 'cache invalidation listener'), log), scheduleJob(jobOf(server, 'webhook delivery'), log)];
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

    // Queue a backlog while no worker runs (in one transaction per event, as usual), then time the drain.
    for (const job of running.splice(0)) await job.stop();
    for (let index = 0; index < backlog; index++) await services.users.create(project, { display_name: `backlog-${index}` }, 'server');
    const started = performance.now();
    const drains = drainers.flatMap((instance) => [
      scheduleJob(jobOf(instance, 'cache invalidation listener'), log),
      scheduleJob(jobOf(instance, 'webhook delivery'), log),
    ]);
    await waitFor(latencyEvents + backlog);
    const seconds = (performance.now() - started) / 1000;
    await Promise.all(drains.map((drain) => drain.stop()));
    // Anything delivered twice would arrive by now.
    await new Promise((resolve) => setTimeout(resolve, 500));
    return {
      latencyP50: Math.round(percentile(latencies, 50)),
      latencyP99: Math.round(percentile(latencies, 99)),
      perSecond: Math.round(backlog / seconds),
      messages: latencyEvents + backlog,
      backlog,
      duplicates: [...seen.values()].reduce((sum, count) => sum + count - 1, 0),
    };
  } finally {
    for (const job of running) await job.stop();
    receiver.close();
    for (const drainDatabase of drainDatabases) await drainDatabase.close();
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startThrowawayPostgres } = await import('../testing/throwaway-postgres.ts');
  const postgres = process.env.DATABASE_URL ? undefined : await startThrowawayPostgres();
  try {
    console.log(JSON.stringify(await measureWebhookDelivery(process.env.DATABASE_URL ?? (postgres?.url as string)), null, 2));
  } finally {
    postgres?.stop();
  }
}
