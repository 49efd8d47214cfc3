import { createHash } from 'node:crypto';
import { createDatabase } from '@gatehouse/server/src/db/create-database.ts';
import { createServer } from '@gatehouse/server/src/services.ts';

/**
 * A webhook worker in a process of its own (tests kill it with SIGKILL mid-delivery): the server's
 * modules on DATABASE_URL with delivery settings from WEBHOOK_* variables, delivering until killed.
 */
const serverSecret = createHash('sha256').update('gatehouse test secret').digest();
const database = await createDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: '', poolSize: 2 });
const { services } = createServer(database.db, { publicUrl: 'http://localhost:8102', serverSecret, environment: process.env });
process.stdout.write('ready\n');
for (;;) {
  await services.webhookDelivery.deliverUntilIdle();
  await new Promise((resolve) => setTimeout(resolve, services.webhookDelivery.settings.pollIntervalMillis));
}
