import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '../../../db/create-database.ts';
import { scheduleJob } from '../../../kernel/background-job.ts';
import { createServer } from '../../../services.ts';
import { schemaErrors } from '@gatehouse/testing/contract';
import { expectError } from '@gatehouse/testing/expect-response';
import { type TestProject, testPublicUrl, testServerSecret, withTestContext } from '@gatehouse/testing/test-context';
import { startReceiver } from '@gatehouse/testing/webhook-receiver';
import type { WebhookSettings } from './webhook-settings.ts';

/**
 * Delivery end to end on real Postgres: events queued in their transaction, posted by workers
 * (in-process instances on their own pools, or a separate process killed mid-delivery), signed per
 * Standard Webhooks, retried on the schedule, logged, replayed; two instances deliver each message once.
 */
const env = withTestContext({ projectConfig: { 'domains.allowLocalhost': true } });
const fast: Partial<WebhookSettings> = {
  pollIntervalMillis: 20,
  attemptTimeoutMillis: 1000,
  leaseMillis: 1500,
  retryScheduleMillis: [100, 200, 400],
  maxAttempts: 6,
};
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

/** A server instance on its own connection pool (another "machine" on the same database). */
async function instance(settings: Partial<WebhookSettings> = fast) {
  const database: DatabaseHandle = await createDatabase({ databaseUrl: inject('databaseUrl'), dataDir: '', poolSize: 3 });
  closers.push(() => database.close());
  return createServer(database.db, { publicUrl: testPublicUrl, serverSecret: testServerSecret, settings: { webhooks: settings } }).services;
}

type Services = Awaited<ReturnType<typeof instance>>;
/** Runs delivery rounds until `done` holds (or fails after `timeoutMillis`). */
async function deliverUntil(services: Services, done: () => boolean | Promise<boolean>, timeoutMillis = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMillis;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('delivery did not finish in time');
    await services.webhookDelivery.deliverDue();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const admin = (project: TestProject = env.project) => project.headers.admin;
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = admin()) =>
  env.context.request({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

async function endpointFor(url: string, project: TestProject = env.project, eventTypes: string[] = []) {
  const response = await call('POST', '/internal/webhooks/endpoints', { url, event_types: eventTypes }, admin(project));
  expect(response.status).toBe(201);
  return response.body as { id: string; secret: string };
}
const messagesOf = async (endpointId: string, project: TestProject = env.project) =>
  (await call('GET', `/internal/webhooks/endpoints/${endpointId}/messages`, undefined, admin(project))).body.items as Array<{
    id: string;
    event_type: string;
    status: string;
    attempts: number;
    payload: { type: string; data: Record<string, unknown> };
    attempt_log: Array<{
      attempt: number;
      succeeded: boolean;
      status_code: number | null;
      response_excerpt: string;
      error: string | null;
      started_at_millis: number;
    }>;
  }>;

let worker: Services;
beforeAll(async () => {
  worker = await instance();
});

describe('webhook delivery', () => {
  it("delivers a user's life, signed, with Stack's payloads", async () => {
    const project = await env.context.createProject({ 'domains.allowLocalhost': true });
    const receiver = await startReceiver();
    closers.push(receiver.close);
    const endpoint = await endpointFor(receiver.url, project);
    const teamsOnly = await startReceiver();
    closers.push(teamsOnly.close);
    await endpointFor(teamsOnly.url, project, ['team.created']);
    const server = project.headers.server;
    const user = (
      await call('POST', '/users', { display_name: 'Ada', primary_email: 'ada@example.com', server_metadata: { plan: 'pro' } }, server)
    ).body;
    await call('PATCH', `/users/${user.id}`, { display_name: 'Ada L.' }, server);
    const team = (await call('POST', '/teams', { display_name: 'Engines' }, server)).body;
    await call('POST', `/team-memberships/${team.id}/${user.id}`, {}, server);
    await call('DELETE', `/users/${user.id}`, {}, server);

    await deliverUntil(worker, () => receiver.received.length >= 5 && teamsOnly.received.length >= 1);
    const verifier = new Webhook(endpoint.secret);
    const events = receiver.received.map((message) => {
      const headers = message.headers as Record<string, string>;
      expect(headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(Math.abs(Number(headers['webhook-timestamp']) * 1000 - Date.now())).toBeLessThan(60_000);
      return verifier.verify(message.body, headers) as { type: string; data: Record<string, unknown> };
    });
    // Order is not guaranteed: compare as a set, then read each.
    expect(events.map((event) => event.type).sort()).toEqual(
      ['team.created', 'team_membership.created', 'user.created', 'user.deleted', 'user.updated'].sort(),
    );
    const of = (type: string) => events.find((event) => event.type === type)?.data ?? {};
    expect(of('user.created')).toMatchObject({
      id: user.id,
      display_name: 'Ada',
      primary_email: 'ada@example.com',
      server_metadata: { plan: 'pro' },
    });
    expect(of('user.updated')).toMatchObject({ id: user.id, display_name: 'Ada L.' });
    expect(of('team.created')).toMatchObject({ id: team.id, display_name: 'Engines' });
    expect(of('team_membership.created')).toEqual({ team_id: team.id, user_id: user.id });
    expect(of('user.deleted')).toMatchObject({ id: user.id });
    for (const event of events) expect(schemaErrors('WebhookEvent', event), event.type).toBe('');
    // The other endpoint wanted team.created only, and got the same message id.
    expect(teamsOnly.received).toHaveLength(1);
    expect(JSON.parse(teamsOnly.received[0]?.body ?? '{}').type).toBe('team.created');
    const teamMessage = receiver.received.find((message) => JSON.parse(message.body).type === 'team.created');
    expect(teamsOnly.received[0]?.headers['webhook-id']).toBe(teamMessage?.headers['webhook-id']);

    const log = await messagesOf(endpoint.id, project);
    expect(log).toHaveLength(5);
    for (const message of log) {
      expect(message).toMatchObject({ status: 'delivered', attempts: 1 });
      expect(message.attempt_log).toEqual([
        expect.objectContaining({ attempt: 1, succeeded: true, status_code: 200, response_excerpt: '', error: null }),
      ]);
    }
  });

  it('retries on the schedule: three failures then a success are four logged attempts', async () => {
    const receiver = await startReceiver((_message, index) =>
      index < 3 ? { status: 500, body: `broken #${index + 1}` } : { status: 204 },
    );
    closers.push(receiver.close);
    const endpoint = await endpointFor(receiver.url);
    await env.context.services.users.create(env.project.project, { display_name: 'Retry' }, 'server');
    await deliverUntil(worker, async () => (await messagesOf(endpoint.id))[0]?.status === 'delivered');

    expect(receiver.received).toHaveLength(4);
    expect(new Set(receiver.received.map((message) => message.headers['webhook-id'])).size).toBe(1);
    const [message] = await messagesOf(endpoint.id);
    expect(message?.attempts).toBe(4);
    expect(
      message?.attempt_log.map((attempt) => [attempt.attempt, attempt.succeeded, attempt.status_code, attempt.response_excerpt]),
    ).toEqual([
      // The status only: the receiver's body is never kept nor shown back (SSRF, issue #30).
      [1, false, 500, ''],
      [2, false, 500, ''],
      [3, false, 500, ''],
      [4, true, 204, ''],
    ]);
    expect(message?.attempt_log[0]?.error).toBe('The endpoint answered HTTP 500.');
    // The waits follow the schedule (100, 200, 400 ms).
    const gaps = receiver.received.slice(1).map((received, index) => received.at - (receiver.received[index]?.at ?? 0));
    for (const [index, gap] of gaps.entries()) expect(gap).toBeGreaterThanOrEqual([100, 200, 400][index] as number);
  });

  it('times an attempt out, gives up after the last attempt, and replays on request', async () => {
    const receiver = await startReceiver(() => ({ status: 200, delayMillis: 3000 }));
    closers.push(receiver.close);
    const endpoint = await endpointFor(receiver.url);
    const limited = await instance({ ...fast, maxAttempts: 2, retryScheduleMillis: [10] });
    await env.context.services.users.create(env.project.project, { display_name: 'Slow' }, 'server');
    await deliverUntil(limited, async () => (await messagesOf(endpoint.id))[0]?.status === 'failed');
    const [failed] = await messagesOf(endpoint.id);
    expect(failed?.attempt_log).toHaveLength(2);
    expect(failed?.attempt_log[0]).toMatchObject({
      succeeded: false,
      status_code: null,
      error: 'The endpoint could not be reached, or did not answer within 1000 ms.',
    });

    const replayed = await call('POST', `/internal/webhooks/endpoints/${endpoint.id}/messages/${failed?.id}/replay`, {});
    expect(replayed.status).toBe(200);
    expect(replayed.body).toMatchObject({ id: failed?.id, status: 'pending' });
    const fixed = await startReceiver();
    closers.push(fixed.close);
    await call('PATCH', `/internal/webhooks/endpoints/${endpoint.id}`, { url: fixed.url });
    await deliverUntil(worker, async () => (await messagesOf(endpoint.id))[0]?.status === 'delivered');
    expect(fixed.received[0]?.headers['webhook-id']).toBe(failed?.id);
    expect((await messagesOf(endpoint.id))[0]?.attempt_log.map((attempt) => attempt.succeeded)).toEqual([false, false, true]);

    expectError(
      await call('POST', `/internal/webhooks/endpoints/${endpoint.id}/messages/msg_nope/replay`, {}),
      404,
      'WEBHOOK_MESSAGE_NOT_FOUND',
      { endpoint_id: endpoint.id, message_id: 'msg_nope' },
    );
    expectError(
      await call('GET', '/internal/webhooks/endpoints/00000000-0000-4000-8000-000000000000/messages'),
      404,
      'WEBHOOK_ENDPOINT_NOT_FOUND',
    );
  });

  it('disables an endpoint that keeps failing, with a webhook_endpoint.disabled event to the others', async () => {
    const project = await env.context.createProject({ 'domains.allowLocalhost': true });
    const broken = await startReceiver(() => ({ status: 503 }));
    const watcher = await startReceiver();
    closers.push(broken.close, watcher.close);
    const failing = await endpointFor(broken.url, project, ['user.created']);
    await endpointFor(watcher.url, project, ['webhook_endpoint.disabled']);
    const impatient = await instance({ ...fast, disableAfterMillis: 150, retryScheduleMillis: [100] });
    await env.context.services.users.create(project.project, { display_name: 'Doomed' }, 'server');
    await deliverUntil(impatient, () => watcher.received.length >= 1);

    const endpoint = (await call('GET', `/internal/webhooks/endpoints/${failing.id}`, undefined, admin(project))).body;
    expect(endpoint).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    const event = JSON.parse(watcher.received[0]?.body ?? '{}');
    expect(event).toMatchObject({ type: 'webhook_endpoint.disabled', data: { id: failing.id, url: broken.url, reason: 'failing' } });
    expect(schemaErrors('WebhookEvent', event)).toBe('');
    // A disabled endpoint gets nothing more; enabling it again resumes its pending message.
    const attemptsWhenDisabled = broken.received.length;
    await impatient.webhookDelivery.deliverDue();
    expect(broken.received.length).toBe(attemptsWhenDisabled);
    const enabled = await call('PATCH', `/internal/webhooks/endpoints/${failing.id}`, { enabled: true }, admin(project));
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null });
    await call('DELETE', `/internal/webhooks/endpoints/${failing.id}`, {}, admin(project));
  });

  it('refuses at delivery time an endpoint whose project no longer allows private addresses', async () => {
    const project = await env.context.createProject({ 'domains.allowLocalhost': true });
    const receiver = await startReceiver();
    closers.push(receiver.close);
    const endpoint = await endpointFor(receiver.url, project);
    const off = await call(
      'PATCH',
      '/internal/config/override/environment',
      { config_override_string: JSON.stringify({ 'domains.allowLocalhost': false }) },
      admin(project),
    );
    expect(off.status, off.text).toBe(200);
    await env.context.services.users.create(
      (await env.context.services.projects.find(project.project.id)) ?? project.project,
      { display_name: 'Nope' },
      'server',
    );
    await deliverUntil(worker, async () => ((await messagesOf(endpoint.id, project))[0]?.attempts ?? 0) >= 1);
    const [message] = await messagesOf(endpoint.id, project);
    expect(message?.attempt_log[0]).toMatchObject({ succeeded: false, status_code: null });
    expect(message?.attempt_log[0]?.error).toMatch(/^The webhook URL is not allowed/);
    expect(receiver.received).toHaveLength(0);
    await call('DELETE', `/internal/webhooks/endpoints/${endpoint.id}`, {}, admin(project));
  });
});

describe('webhook delivery across instances', () => {
  it('two instances on one database deliver each of 120 messages exactly once', async () => {
    const project = await env.context.createProject({ 'domains.allowLocalhost': true });
    const receiver = await startReceiver(() => ({ status: 200, delayMillis: 5 }));
    closers.push(receiver.close);
    await endpointFor(receiver.url, project);
    const count = 120;
    for (let index = 0; index < count; index++)
      await env.context.services.users.create(project.project, { display_name: `U${index}` }, 'server');

    const instances = [await instance({ ...fast, batchSize: 8 }), await instance({ ...fast, batchSize: 8 })];
    const claimed = [0, 0];
    const jobs = instances.map((services, index) =>
      scheduleJob(
        {
          name: `worker ${index}`,
          intervalMillis: 10,
          run: async () => {
            let round = await services.webhookDelivery.deliverDue();
            while (round > 0) {
              claimed[index] = (claimed[index] ?? 0) + round;
              round = await services.webhookDelivery.deliverDue();
            }
          },
        },
        { info: () => {}, error: () => {} },
      ),
    );
    try {
      await receiver.waitFor(count, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      await Promise.all(jobs.map((job) => job.stop()));
    }
    const ids = receiver.received.map((message) => message.headers['webhook-id']);
    expect(ids).toHaveLength(count);
    expect(new Set(ids).size).toBe(count);
    expect(claimed[0]).toBeGreaterThan(0);
    expect(claimed[1]).toBeGreaterThan(0);
  });
});

describe('a worker killed mid-delivery', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });

  function startWorkerProcess(): Promise<ChildProcess> {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', createRequire(import.meta.url).resolve('@gatehouse/testing/webhook-worker-process')],
      {
        env: {
          ...process.env,
          DATABASE_URL: inject('databaseUrl'),
          WEBHOOK_POLL_INTERVAL_MS: '20',
          WEBHOOK_ATTEMPT_TIMEOUT_MS: '5000',
          WEBHOOK_LEASE_MS: '6000',
          WEBHOOK_RETRY_SCHEDULE_MS: '100',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.push(child);
    return new Promise((resolve, reject) => {
      let output = '';
      child.stdout?.on('data', (chunk) => {
        output += chunk;
        if (output.includes('ready')) resolve(child);
      });
      child.stderr?.on('data', (chunk) => {
        output += chunk;
      });
      child.once('exit', (code) => reject(new Error(`worker exited with ${code}: ${output}`)));
    });
  }

  // Two worker processes start here (tsx compiles the server in each): 22 s each at load 28, beyond the default 30 s.
  it('loses nothing: after a restart the message is delivered', { timeout: 180_000 }, async () => {
    const project = await env.context.createProject({ 'domains.allowLocalhost': true });
    // First answer 500; the second attempt hangs (the worker is killed while waiting); then 200.
    const receiver = await startReceiver((_message, index) =>
      index === 0 ? { status: 500 } : index === 1 ? { status: 200, delayMillis: 60_000 } : { status: 200 },
    );
    closers.push(receiver.close);
    const endpoint = await endpointFor(receiver.url, project);
    const first = await startWorkerProcess();
    await env.context.services.users.create(project.project, { display_name: 'Survivor' }, 'server');
    await receiver.waitFor(2, 20_000);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const [pending] = await messagesOf(endpoint.id, project);
    expect(pending).toMatchObject({ status: 'pending', attempts: 2 });

    await startWorkerProcess();
    await receiver.waitFor(3, 20_000);
    const deadline = Date.now() + 10_000;
    while ((await messagesOf(endpoint.id, project))[0]?.status !== 'delivered' && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const [message] = await messagesOf(endpoint.id, project);
    expect(message).toMatchObject({ status: 'delivered', attempts: 3 });
    // The killed attempt left no log line; the two finished ones did.
    expect(message?.attempt_log.map((attempt) => [attempt.attempt, attempt.status_code])).toEqual([
      [1, 500],
      [3, 200],
    ]);
    expect(new Set(receiver.received.map((received) => received.headers['webhook-id'])).size).toBe(1);
    await call('DELETE', `/internal/webhooks/endpoints/${endpoint.id}`, {}, admin(project));
  });
});
