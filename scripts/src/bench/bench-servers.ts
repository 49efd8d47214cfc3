import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import { buildApp } from '../../../server/src/app.ts';
import { createDatabase } from '../../../server/src/db/create-database.ts';
import { migrateToLatest } from '../../../server/src/db/migrate.ts';
import { createServices } from '../../../server/src/services.ts';

/**
 * The processes under load, apart from the load generator: the platform on real Postgres, and a
 * bare Fastify route (the framework floor). Prints one JSON line with where to find them.
 */
const databaseUrl = process.env.DATABASE_URL as string;
const database = await createDatabase({ databaseUrl, dataDir: '', poolSize: 10 });
await migrateToLatest(database.db);
const services = createServices(database.db, { publicUrl: 'http://127.0.0.1' }, createHash('sha256').update('bench').digest());
const project = await services.projects.create({ displayName: 'Bench project' });
const { keys } = await services.apiKeys.createKeySet({
  projectId: project.id,
  description: 'bench',
  expiresAt: new Date(Date.now() + 3_600_000),
  keys: { publishable_client_key: true, secret_server_key: true },
});
// Throughput is the point here: limits would only measure 429s.
const app = await buildApp({ services, rateLimits: null });
await app.listen({ port: 0, host: '127.0.0.1' });

const bare = Fastify({ logger: false });
bare.get(
  '/bare',
  { schema: { response: { 200: { type: 'object', properties: { id: { type: 'string' }, display_name: { type: 'string' } } } } } },
  async () => ({
    id: project.id,
    display_name: project.display_name,
  }),
);
await bare.listen({ port: 0, host: '127.0.0.1' });

const portOf = (server: typeof bare) => (server.server.address() as { port: number }).port;
console.log(JSON.stringify({ appPort: portOf(app as unknown as typeof bare), barePort: portOf(bare), projectId: project.id, keys }));
process.on('message', (message) => {
  if (message === 'memory') process.send?.({ rssMb: Math.round(process.memoryUsage().rss / 1024 / 1024) });
});
process.once('SIGTERM', async () => {
  await app.close();
  await bare.close();
  await database.close();
  process.exit(0);
});
