import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../../db/create-database.ts';
import { createServer } from '../../../services.ts';
import { freshDatabase } from '@gatehouse/testing/server-process';
import { type SmtpSink, startSmtpSink } from '@gatehouse/testing/smtp-sink';
import { createTestContext, type TestContext, type TestProject, testPublicUrl, testServerSecret } from '@gatehouse/testing/test-context';
import { defaultRenderLimits } from './rendering/email-renderer.ts';

/**
 * Sending an invitation renders its email inline. Under load both the project's template and the
 * built-in fallback could outrun the sandbox's deadline, and the second failure was uncaught: a 500
 * after the invitation was already issued (issue #38). Now an email that does not render in time is
 * queued for the outbox worker, which renders it later: the caller gets its 200 and the invitee the
 * email. A 1 ms render deadline (EMAIL_RENDER_TIMEOUT_MS) makes every inline render time out here.
 */
let sink: SmtpSink;
let database: Awaited<ReturnType<typeof freshDatabase>>;
let slow: TestContext;
let project: TestProject;
const closers: Array<() => Promise<void>> = [];
const delivery = {
  pollIntervalMillis: 0,
  leaseMillis: 30_000,
  maxAttempts: 3,
  retryBaseMillis: 100,
  retryMaxMillis: 1_000,
  batchSize: 64,
  smtpConnections: 2,
};

beforeAll(async () => {
  sink = await startSmtpSink();
  // A database of its own: the worker below claims due rows of every project.
  database = await freshDatabase();
  slow = await createTestContext({
    databaseUrl: database.url,
    poolSize: 4,
    settings: { email: { renderLimits: { ...defaultRenderLimits, timeoutMs: 1 }, delivery } },
  });
  project = await slow.createProject({
    'domains.trustedDomains': { app: { baseUrl: 'https://app.example.com', handlerPath: '/handler' } },
    'domains.allowLocalhost': true,
    'emails.server': {
      isShared: false,
      host: '127.0.0.1',
      port: sink.port,
      username: 'u',
      password: 'p',
      senderName: 'Acme',
      senderEmail: 'team@acme.test',
    },
  });
}, 120_000);

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await slow?.close();
  await database?.drop();
  await sink?.close();
});

/** Another instance on the same database whose renders have the default deadline (the outbox worker). */
async function worker() {
  const handle = await createDatabase({ databaseUrl: database.url, dataDir: '', poolSize: 2 });
  const { services } = createServer(handle.db, {
    publicUrl: testPublicUrl,
    serverSecret: testServerSecret,
    settings: { email: { delivery, log: () => {} } },
  });
  closers.push(async () => {
    await services.email.close();
    await handle.close();
  });
  return services;
}

describe('an invitation whose email does not render in time', () => {
  it('answers 200 to concurrent sends and the worker delivers each email once, its link accepted', { timeout: 180_000 }, async () => {
    const team = await slow.services.teams.create(project.project, { display_name: 'Night shift' });
    const invitees = Array.from({ length: 6 }, (_, index) => `slow-${index}-${randomUUID().slice(0, 8)}@example.com`);
    const responses = await Promise.all(
      invitees.map((email) =>
        slow.request({
          method: 'POST',
          url: '/api/v1/team-invitations/send-code',
          headers: project.headers.server,
          payload: { team_id: team.id, email, callback_url: 'https://app.example.com/handler/team-invitation' },
        }),
      ),
    );
    for (const response of responses) expect(response.status, response.text).toBe(200);

    // One outbox row each; those that did not render in time wait for the worker, not rendered yet (a
    // render that beat the 1 ms deadline went out inline).
    const rows = await slow.services.email.listOutbox(project.project.id, 50);
    expect(rows.map((row) => row.to_address).sort()).toEqual([...invitees].sort());
    const waiting = rows.filter((row) => row.status === 'queued');
    expect(waiting.length).toBeGreaterThan(0);
    for (const row of waiting) expect(row).toMatchObject({ kind: 'team_invitation', error: null, html: '', attempts: 0 });
    expect(rows.every((row) => row.status === 'queued' || row.status === 'sent')).toBe(true);

    const services = await worker();
    await expect
      .poll(
        async () => {
          await services.email.deliverUntilIdle();
          return sink.messages.filter((message) => invitees.includes(message.to[0] ?? '')).length;
        },
        { timeout: 120_000, interval: 200 },
      )
      .toBe(invitees.length);
    for (const email of invitees) {
      const messages = sink.messages.filter((message) => message.to[0] === email);
      expect(messages).toHaveLength(1);
      expect(messages[0]?.text).toContain('Night shift');
      const code = messages[0]?.text.match(/[?&]code=([a-z2-7]{45})/)?.[1];
      expect(code, messages[0]?.text).toBeDefined();
      const check = await slow.request({
        method: 'POST',
        url: '/api/v1/team-invitations/accept/check-code',
        headers: project.headers.client,
        payload: { code },
      });
      expect(check.status).toBe(200);
      expect(check.body).toEqual({ is_code_valid: true });
    }
    const sent = await slow.services.email.listOutbox(project.project.id, 50);
    expect(sent.every((row) => row.status === 'sent')).toBe(true);
  });

  it('keeps the invitation link out of the database in clear while the email waits', { timeout: 60_000 }, async () => {
    const team = await slow.services.teams.create(project.project, { display_name: 'Day shift' });
    const email = `sealed-${randomUUID().slice(0, 8)}@example.com`;
    const response = await slow.request({
      method: 'POST',
      url: '/api/v1/team-invitations/send-code',
      headers: project.headers.server,
      payload: { team_id: team.id, email, callback_url: 'https://app.example.com/handler/team-invitation' },
    });
    expect(response.status, response.text).toBe(200);
    const batches = await slow.database.db
      .selectFrom('email_send_batch')
      .select('variables')
      .where('project_id', '=', project.project.id)
      .execute();
    expect(batches.length).toBeGreaterThan(0);
    for (const batch of batches) expect(JSON.stringify(batch.variables)).not.toContain('handler/team-invitation');
  });
});
