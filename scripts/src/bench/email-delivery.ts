import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { createDatabase } from '../../../server/src/db/create-database.ts';
import { migrateToLatest } from '../../../server/src/db/migrate.ts';
import { scheduleJob } from '../../../server/src/kernel/background-job.ts';
import { readEmailDeliverySettings } from '../../../server/src/modules/messaging/email/email-delivery-settings.ts';
import { createServer, migrations } from '../../../server/src/services.ts';
import { startCountingSmtpSink } from '@gatehouse/testing/smtp-sink';
import { measurePerRecipientDrain, type PerRecipientFigures } from './email-per-recipient.ts';

export type EmailFigures = {
  renderColdP50: number;
  renderWarmP50: number;
  renderFirst: number;
  users: number;
  enqueueMillis: number;
  /** Each enqueue (BENCH_EMAIL_RUNS with BENCH_EMAIL_DELIVER=0); enqueueMillis is their median. */
  enqueueRuns: number[];
  /** BENCH_EMAIL_DELIVER=0: the enqueue alone was measured (no render figures, no delivery). */
  enqueueOnly: boolean;
  delivered: number;
  /** Messages beyond the first to one recipient (exactly once: 0). */
  duplicates: number;
  deliverySeconds: number;
  perSecond: number;
  settings: ReturnType<typeof readEmailDeliverySettings>;
  poolSize: number;
  /** A per-recipient template's drain against the render pool alone (BENCH_EMAIL_TEMPLATE_USERS, 0: skipped). */
  perRecipient?: PerRecipientFigures;
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

const template = `import { Container, Heading, Text, Button } from '@react-email/components';
export const subject = 'Welcome';
export function EmailTemplate({ user, project, variables }) {
  return (
    <Container>
      <Heading>Hello {user.display_name ?? 'there'}</Heading>
      <Text>Welcome to {project.display_name}. Here is what is new this week.</Text>
      <Button href="https://example.com/news">Read the news</Button>
    </Container>
  );
}`;

/**
 * Emails: the sandboxed render's p50 cold (a source not compiled yet: esbuild, then a fresh QuickJS
 * runtime) and warm (its bundle cached: the runtime only), the first render of the process apart;
 * then `send-email` with `all_users` on `users` users (BENCH_EMAIL_USERS, 100 000): the time to
 * enqueue (the call's answer) and the rate the outbox worker (the `email delivery` job with the
 * settings of the environment: EMAIL_BATCH_SIZE, EMAIL_SMTP_CONNECTIONS, ...) delivers them to a
 * local SMTP sink, over the whole drain.
 */
export async function measureEmail(databaseUrl: string, users = Number(process.env.BENCH_EMAIL_USERS ?? 100_000)): Promise<EmailFigures> {
  const poolSize = Number(process.env.DATABASE_POOL_SIZE ?? 10);
  const database = await createDatabase({ databaseUrl, dataDir: '', poolSize });
  await migrateToLatest(database.db, migrations);
  // BENCH_EMAIL_DELIVER=0: the enqueue alone (no render figures, no worker, no drain), re-measured
  // in a minute; BENCH_EMAIL_RUNS (1) enqueues that many times on an emptied outbox, the median counts.
  const deliver = process.env.BENCH_EMAIL_DELIVER !== '0';
  const runs = deliver ? 1 : Number(process.env.BENCH_EMAIL_RUNS ?? 1);
  // Without delivery send-email's kick must not start the worker either (poll interval 0: no kick).
  const settings = { ...readEmailDeliverySettings(process.env), ...(deliver ? {} : { pollIntervalMillis: 0 }) };
  const server = createServer(database.db, {
    publicUrl: 'http://127.0.0.1',
    serverSecret: createHash('sha256').update('bench').digest(),
    settings: { email: { log: () => {}, delivery: settings } },
  });
  const { services } = server;
  const sink = await startCountingSmtpSink();
  const running: Array<{ stop: () => Promise<void> }> = [];
  try {
    const smtpConfig = {
      isShared: false,
      host: '127.0.0.1',
      port: sink.port,
      username: 'u',
      password: 'p',
      senderName: 'Bench',
      senderEmail: 'bench@example.com',
    };
    const project = await services.projects.create({
      displayName: 'Email bench',
      // The sink listens on loopback: a project's own SMTP server may be there only when it allows localhost.
      configOverride: { 'domains.allowLocalhost': true, 'emails.server': smtpConfig },
    });
    const props = {
      user: { display_name: 'Ann', primary_email: 'ann@example.com' },
      project: { id: project.id, display_name: project.display_name },
      variables: {},
    };
    const theme = services.emailContent.themeSource(project, undefined);
    const render = async (source: string) => {
      const started = performance.now();
      await services.emailContent.renderOrThrow({ templateSource: source, themeSource: theme, props });
      return performance.now() - started;
    };
    const renderFirst = await render(`${template}\n// first`);
    const cold: number[] = [];
    const warm: number[] = [];
    if (deliver) {
      for (let index = 0; index < 20; index++) cold.push(await render(`${template}\n// cold ${index}`));
      for (let index = 0; index < 50; index++) warm.push(await render(template));
    }

    await sql`
      insert into project_user (id, project_id, display_name, primary_email, primary_email_verified)
      select gen_random_uuid(), ${project.id}, 'User ' || g, 'user' || g || '@example.com', true
      from generate_series(1, ${users}::int) g`.execute(database.db);
    await sql`vacuum analyze project_user`.execute(database.db);

    // The worker runs as in the server: the job on its poll interval, and send-email's kick.
    const job = server.jobs.find((candidate) => candidate.name === 'email delivery');
    if (!job) throw new Error('no email delivery job');
    if (deliver) running.push(scheduleJob(job, { info: () => {}, error: (fields) => console.error(fields) }));
    const before = sink.received();
    const enqueueRuns: number[] = [];
    let started = 0;
    for (let run = 0; run < runs; run++) {
      if (run > 0) {
        await sql`delete from email_outbox`.execute(database.db);
        await sql`delete from email_send_batch`.execute(database.db);
        await sql`vacuum analyze email_outbox`.execute(database.db);
      }
      started = performance.now();
      const answer = await services.emailSending.send(project, {
        all_users: true,
        html: '<p>Hello from the bench. Here is what is new this week.</p>',
        subject: 'Bench news',
      });
      enqueueRuns.push(performance.now() - started);
      if (answer.results.length !== users) throw new Error(`enqueued ${answer.results.length} of ${users}`);
    }
    const enqueueMillis = median(enqueueRuns);
    const deadline = Date.now() + Number(process.env.BENCH_EMAIL_MAX_SECONDS ?? 1_800) * 1_000;
    let lastReport = Date.now();
    while (deliver && sink.received() - before < users && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (Date.now() - lastReport >= 10_000) {
        lastReport = Date.now();
        const seconds = (performance.now() - started) / 1000;
        console.error(`email bench: ${sink.received() - before} delivered in ${seconds.toFixed(0)} s`);
      }
    }
    const deliverySeconds = (performance.now() - started) / 1000;
    const delivered = sink.received() - before;
    // Then the per-recipient case, on the same worker and sink, once the identical-body drain is done.
    const templateUsers = Number(process.env.BENCH_EMAIL_TEMPLATE_USERS ?? 1_000);
    const perRecipient =
      deliver && templateUsers > 0
        ? await measurePerRecipientDrain({ database, services, smtpConfig, received: () => sink.received(), deadline }, templateUsers)
        : undefined;
    // Over both drains: every recipient address is distinct, so any count above one is a duplicate.
    const duplicates = [...sink.recipients.values()].reduce((sum, count) => sum + count - 1, 0);
    return {
      renderColdP50: Math.round(median(cold)),
      renderWarmP50: Math.round(median(warm)),
      renderFirst: Math.round(renderFirst),
      users,
      enqueueMillis: Math.round(enqueueMillis),
      enqueueRuns: enqueueRuns.map(Math.round),
      enqueueOnly: !deliver,
      delivered,
      duplicates,
      deliverySeconds: Math.round(deliverySeconds * 10) / 10,
      perSecond: Math.round(delivered / deliverySeconds),
      settings,
      poolSize,
      ...(perRecipient ? { perRecipient } : {}),
    };
  } finally {
    for (const job of running) await job.stop();
    await services.email.close();
    // The sandbox's worker threads would keep the process alive.
    await services.emailContent.renderer.close();
    await sink.close();
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startThrowawayPostgres } = await import('../testing/throwaway-postgres.ts');
  const postgres = process.env.DATABASE_URL ? undefined : await startThrowawayPostgres();
  try {
    console.log(JSON.stringify(await measureEmail(process.env.DATABASE_URL ?? (postgres?.url as string)), null, 2));
  } finally {
    postgres?.stop();
  }
}
