import { buildApp } from './app.ts';
import { startClusterPrimary } from './bootstrap/cluster-primary.ts';
import { readEnv } from './config/env.ts';
import { requestSerializer } from './config/secrets-in-logs.ts';
import { createDatabase } from './db/create-database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { closeGracefullyOnSignals } from './bootstrap/graceful-shutdown.ts';
import { giveDemoProjectToFirstOwner } from './bootstrap/demo-project-owner.ts';
import { seedProjects } from './bootstrap/seed-projects.ts';
import { withStartupLock } from './db/startup-lock.ts';
import { resolveServerSecret } from './db/server-secret.ts';
import { startupMark, startupTraceEnabled } from './lib/startup-trace.ts';
import { printStartBanner } from './start-banner.ts';
import { createServer, migrations } from './services.ts';

/** `pnpm start`: database (PGlite unless DATABASE_URL), migrations, seed projects, HTTP server. */
async function main(): Promise<void> {
  // WORKERS > 1: this process only forks and watches the workers, each of which runs what follows.
  if (startClusterPrimary()) return;
  startupMark('main module loaded');
  // Until the server listens, a timer keeps Node's event loop from running empty. Each time it runs empty
  // (while start-up awaits only promises: PGlite's WebAssembly, its queries) Node blocks the main thread until
  // every V8 background task has finished (NodePlatform::DrainTasks), and the work after the await ran inside
  // that drain: start-up waited about 190 ms for V8's optimising compiler to finish PGlite's hot functions
  // on its helper threads before seeding could read a file. With the loop alive they compile beside it.
  const startingUp = setInterval(() => {}, 60_000);
  const env = readEnv();
  const database = await createDatabase({
    databaseUrl: env.databaseUrl,
    dataDir: env.dataDir,
    poolSize: env.databasePoolSize,
    acquireTimeoutMs: env.databaseAcquireTimeoutMs,
    idleInTransactionTimeoutMs: env.databaseIdleInTransactionTimeoutMs,
    // Before the app's logger exists; the pool replaces the connection.
    onConnectionLost: (error) => console.error(`database connection lost (the pool opens a new one): ${error.message}`),
  });
  startupMark('database opened');
  // Instances started together on one database migrate and seed one after the other (the first does the work).
  const { server, seeded } = await withStartupLock(database, async () => {
    await migrateToLatest(database.db, migrations);
    startupMark('migrations checked');
    const server = createServer(database.db, {
      publicUrl: env.publicUrl,
      serverSecret: await resolveServerSecret(database.db, env.serverSecret, env.production),
      encryptionKeys: env.encryptionKeys,
      environment: process.env,
    });
    startupMark('modules wired');
    return { server, seeded: await seedProjects(server.services, env) };
  });
  startupMark('seeded');
  if (env.developmentMode) giveDemoProjectToFirstOwner(server.services, seeded.demo.id);
  const dashboardClient = { projectId: seeded.internal.id, publishableClientKey: seeded.internal.keys.publishable_client_key };
  const demoClient = { projectId: seeded.demo.id, publishableClientKey: seeded.demo.keys.publishable_client_key };
  const app = await buildApp({
    server,
    logger: { level: env.logLevel, serializers: { req: requestSerializer(env.developmentMode) } },
    trustProxy: env.trustProxy,
    rateLimits: env.rateLimits,
    backgroundJobs: true,
    exampleApp: env.exampleAppDir ? { distDir: env.exampleAppDir, config: () => demoClient } : undefined,
    dashboard: env.dashboardDir ? { distDir: env.dashboardDir, config: () => dashboardClient } : undefined,
    docs: env.docsDir ? { distDir: env.docsDir } : undefined,
  });
  startupMark('app built');
  if (startupTraceEnabled) {
    let first = true;
    app.addHook('onResponse', async () => {
      if (first) startupMark('first response sent');
      first = false;
    });
  }
  await app.listen({ port: env.port, host: env.host });
  clearInterval(startingUp);
  startupMark('listening');
  printStartBanner(env, database, seeded);

  closeGracefullyOnSignals({
    app,
    closeDatabase: database.close,
    startDraining: () => server.services.health.startDraining(),
    timeoutMs: env.shutdownTimeoutMs,
    delayMs: env.shutdownDelayMs,
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
