import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../../db/create-database.ts';
import { createServer } from '../../../services.ts';
import { freshDatabase } from '@gatehouse/testing/server-process';
import { createTestContext, testPublicUrl, testServerSecret } from '@gatehouse/testing/test-context';
import type { EmailDeliverySettings } from '../email/email-delivery-settings.ts';

/**
 * The outbox worker keeps several claimed batches on the wire: a message the mail server holds
 * does not hold the batches claimed after it, and every row is still settled once.
 */
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

/** An SMTP server that takes every message at once, except those to `slow`, held until `release()`. */
async function startHoldingSink(slow: string) {
  const delivered: string[] = [];
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username ?? 'anonymous' }),
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((entry) => entry.address);
        const done = () => {
          delivered.push(...to);
          callback();
        };
        if (to.includes(slow)) void released.then(done);
        else done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.on('error', () => {});
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.server.address() as AddressInfo).port, delivered, release: () => release() };
}

const settings: EmailDeliverySettings = {
  pollIntervalMillis: 0,
  leaseMillis: 60_000,
  maxAttempts: 3,
  retryBaseMillis: 100,
  retryMaxMillis: 1_000,
  batchSize: 2,
  smtpConnections: 4,
  claimsInFlight: 3,
};

describe('email delivery throughput', () => {
  it('a message the mail server holds does not hold the batches claimed after it', { timeout: 120_000 }, async () => {
    const tag = randomUUID().slice(0, 8);
    const slow = `slow-${tag}@example.com`;
    const sink = await startHoldingSink(slow);
    const database = await freshDatabase();
    closers.push(database.drop);
    const context = await createTestContext({ databaseUrl: database.url, poolSize: 3, settings: { email: { delivery: settings } } });
    closers.push(() => context.close());
    const project = await context.createProject({
      'domains.allowLocalhost': true,
      'emails.server': {
        isShared: false,
        host: '127.0.0.1',
        port: sink.port,
        username: 'u',
        password: 'p',
        senderName: 'Acme',
        senderEmail: 'news@acme.test',
      },
    });
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    closers.push(() => client.end());
    const others = Array.from({ length: 9 }, (_, index) => `u${index}-${tag}@example.com`);
    for (const address of [slow, ...others]) await context.services.users.create(project.project, { primary_email: address }, 'server');
    const sent = await context.request({
      method: 'POST',
      url: '/api/v1/emails/send-email',
      headers: project.headers.server,
      payload: { all_users: true, html: '<p>Hello</p>', subject: 'News' },
    });
    expect(sent.status).toBe(200);
    // The held message's row is claimed first (in the first batch of two).
    await client.query(`update email_outbox set next_attempt_at = now() - interval '1 minute' where to_address = $1`, [slow]);

    const workerDatabase = await createDatabase({ databaseUrl: database.url, dataDir: '', poolSize: 4 });
    const { services } = createServer(workerDatabase.db, {
      publicUrl: testPublicUrl,
      serverSecret: testServerSecret,
      settings: { email: { delivery: settings, log: () => {} } },
    });
    closers.push(async () => {
      await services.email.close();
      await workerDatabase.close();
    });
    const run = services.email.deliverUntilIdle(undefined, 60_000);
    // Before: rounds one after the other, so the first batch's held message held all the others.
    await expect.poll(() => sink.delivered.length, { timeout: 60_000 }).toBe(others.length);
    const statuses = async () =>
      (await client.query(`select to_address, status from email_outbox order by to_address`)).rows as Array<{
        to_address: string;
        status: string;
      }>;
    await expect
      .poll(async () => (await statuses()).filter((row) => row.status === 'sent').length, { timeout: 30_000 })
      .toBe(others.length);
    expect((await statuses()).find((row) => row.to_address === slow)?.status).toBe('sending');

    sink.release();
    await run;
    expect((await statuses()).every((row) => row.status === 'sent')).toBe(true);
    expect([...sink.delivered].sort()).toEqual([slow, ...others].sort());
  });
});
