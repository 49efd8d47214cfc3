import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleOf } from '../../db/handle.ts';
import { smtpFailures } from '../../modules/messaging/email/smtp-guard.ts';
import { insertWebhookEndpoint } from '../../modules/messaging/webhooks/webhook-endpoint.repository.ts';
import { installConnectionTripwire } from '@gatehouse/testing/connection-tripwire';
import { expectError } from '@gatehouse/testing/expect-response';
import { type SmtpSink, startSmtpSink } from '@gatehouse/testing/smtp-sink';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import { startReceiver } from '@gatehouse/testing/webhook-receiver';
import { judgeAddress } from './address-policy.ts';
import { type HostResolver, systemResolver } from './outbound-target.ts';

/**
 * The SSRF matrix (issue #30): every outbound feature a project points somewhere (webhook
 * endpoints: creation, the test message, delivery; its SMTP server: the test email and real
 * sends) against every kind of address, with and without `allowLocalhost`. A refused row must
 * answer its catalogued refusal and start no connection at all; the tripwire below also stops any
 * non-loopback connection before a packet leaves, so a broken guard fails these tests without
 * reaching anything. Allowed rows reach real loopback listeners.
 *
 * Features that take no project-given address (OAuth endpoints are fixed per provider or set by the
 * operator; the AI provider and Stripe are the operator's; email templates render in a sandbox
 * with no network) are covered at the end: a template cannot fetch.
 */

/** Names pointed by the test's resolver; anything else that is not a number spelling does not resolve (no DNS traffic). */
const names: Record<string, Array<{ address: string; family: 4 | 6 }>> = {
  localhost: [{ address: '127.0.0.1', family: 4 }],
  'loopback.test': [{ address: '127.0.0.1', family: 4 }],
  'private.test': [{ address: '10.0.0.5', family: 4 }],
  'metadata.test': [{ address: '169.254.169.254', family: 4 }],
  'mapped.test': [{ address: '::ffff:127.0.0.1', family: 6 }],
  // One loopback record and one private: the private one refuses the name, even with localhost allowed.
  'mixed.test': [
    { address: '127.0.0.1', family: 4 },
    { address: '10.0.0.5', family: 4 },
  ],
};
const resolve: HostResolver = async (host) => {
  const known = names[host];
  if (known) return known;
  // Number spellings (2130706433, 0x7f.0.0.1) are parsed by the system resolver without a query.
  if (/^[0-9a-fx.]+$/i.test(host)) return systemResolver(host);
  throw Object.assign(new Error(`${host} does not resolve here`), { code: 'ENOTFOUND' });
};

type Row = { host: string; what: string; loopback?: boolean };
const rows: Row[] = [
  { host: '127.0.0.1', what: 'IPv4 loopback', loopback: true },
  { host: '127.1.2.3', what: 'loopback /8', loopback: true },
  { host: 'localhost', what: 'localhost', loopback: true },
  { host: 'loopback.test', what: 'a name resolving only to loopback', loopback: true },
  { host: '2130706433', what: 'loopback in decimal', loopback: true },
  { host: '0x7f.0.0.1', what: 'loopback in hex', loopback: true },
  { host: '0177.0.0.1', what: 'loopback in octal', loopback: true },
  { host: '[::1]', what: 'IPv6 loopback', loopback: true },
  { host: '10.1.2.3', what: 'private 10/8' },
  { host: '172.16.5.4', what: 'private 172.16/12' },
  { host: '192.168.1.1', what: 'private 192.168/16' },
  { host: '169.254.169.254', what: 'cloud metadata (link-local)' },
  { host: '0xa9fea9fe', what: 'cloud metadata in hex' },
  { host: '167772161', what: '10.0.0.1 in decimal' },
  { host: '0x0a.0.0.1', what: '10.0.0.1 in hex' },
  { host: '100.64.0.1', what: 'CGNAT' },
  { host: '0.0.0.0', what: 'unspecified' },
  { host: '224.0.0.1', what: 'multicast' },
  { host: '255.255.255.255', what: 'broadcast' },
  { host: '[::]', what: 'IPv6 unspecified' },
  { host: '[fc00::1]', what: 'unique-local fc00::/7' },
  { host: '[fd12:3456::1]', what: 'unique-local fd00::/8' },
  { host: '[fe80::1]', what: 'IPv6 link-local' },
  { host: '[::ffff:127.0.0.1]', what: 'IPv4-mapped loopback' },
  { host: '[::ffff:a9fe:a9fe]', what: 'IPv4-mapped metadata' },
  { host: '[64:ff9b::a00:1]', what: 'NAT64 of 10.0.0.1' },
  { host: 'private.test', what: 'a name resolving to 10.0.0.5' },
  { host: 'metadata.test', what: 'a name resolving to 169.254.169.254' },
  { host: 'mapped.test', what: 'a name resolving to ::ffff:127.0.0.1' },
  { host: 'mixed.test', what: 'a name with a loopback and a private record' },
];
// The listeners are bound to 127.0.0.1: another loopback address is allowed but finds nobody there.
const reachable = (row: Row) => row.loopback === true && row.host !== '[::1]' && row.host !== '127.1.2.3';
const bare = (host: string) => host.replace(/^\[(.*)\]$/, '$1');

const env = withTestContext({ settings: { webhooks: { resolve }, email: { resolve } } });
const tripwire = installConnectionTripwire();
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let sink: SmtpSink;
const projects: Record<'strict' | 'local', TestProject> = {} as never;

beforeAll(async () => {
  receiver = await startReceiver();
  sink = await startSmtpSink();
  projects.strict = await env.context.createProject();
  projects.local = await env.context.createProject({ 'domains.allowLocalhost': true });
});
afterAll(async () => {
  tripwire.uninstall();
  await Promise.all([receiver.close(), sink.close()]);
});

const receiverPort = () => Number(new URL(receiver.url).port);
const webhookUrl = (host: string) => `http://${host}:${receiverPort()}/hook`;
const call = (project: TestProject, url: string, payload: object) =>
  env.context.request({ method: 'POST', url: `/api/v1${url}`, headers: project.headers.admin, payload });

for (const mode of ['strict', 'local'] as const) {
  describe(`with localhost ${mode === 'local' ? 'allowed' : 'not allowed'}`, () => {
    for (const row of rows) {
      const allowed = mode === 'local' && row.loopback === true;
      describe(`${row.what} (${row.host})`, () => {
        it(`the guard ${allowed ? 'allows' : 'refuses'} it`, async () => {
          const verdicts = await Promise.all(
            (await resolve(new URL(webhookUrl(row.host)).hostname.replace(/^\[(.*)\]$/, '$1')).catch(() => [])).map(({ address }) =>
              judgeAddress(address, { allowLoopback: mode === 'local' }),
            ),
          );
          if (allowed) expect(verdicts.every((verdict) => verdict.allowed)).toBe(true);
          else expect(verdicts.length === 0 || verdicts.some((verdict) => !verdict.allowed)).toBe(true);
        });

        it(`webhook endpoint creation ${allowed ? 'accepts' : 'refuses'} it`, async () => {
          const before = tripwire.to(receiverPort()).length;
          const created = await call(projects[mode], '/internal/webhooks/endpoints', { url: webhookUrl(row.host) });
          if (allowed) expect(created.status).toBe(201);
          else expectError(created, 400, 'WEBHOOK_ENDPOINT_URL_NOT_ALLOWED');
          // Creation checks the address; it connects to nothing.
          expect(tripwire.to(receiverPort()).length).toBe(before);
          if (created.status === 201)
            await env.context.request({
              method: 'DELETE',
              url: `/api/v1/internal/webhooks/endpoints/${created.body.id}`,
              headers: projects[mode].headers.admin,
            });
        });

        it(`the test webhook and a delivery ${allowed ? 'reach' : 'never connect to'} it`, async () => {
          const project = projects[mode];
          const db = handleOf(env.context.database.db);
          // Stored as if it had been allowed once (another policy, another DNS answer).
          const endpoint = await insertWebhookEndpoint(
            db,
            project.project.id,
            randomUUID(),
            { url: webhookUrl(row.host), description: row.what, eventTypes: ['user.created'], enabled: true },
            `whsec_${Buffer.alloc(24, 1).toString('base64')}`,
          );
          const before = { attempts: tripwire.to(receiverPort()).length, received: receiver.received.length };
          const sent = await call(project, '/internal/send-test-webhook', { endpoint_id: endpoint.id });
          await env.context.services.users.create(project.project, { display_name: row.what }, 'server');
          const log = async () =>
            (
              await env.context.request({
                url: `/api/v1/internal/webhooks/endpoints/${endpoint.id}/messages`,
                headers: project.headers.admin,
              })
            ).body.items[0]?.attempt_log[0];
          for (let round = 0; round < 100 && !(await log()); round++) {
            await env.context.services.webhookDelivery.deliverDue();
            await new Promise((done) => setTimeout(done, 20));
          }
          const attempt = await log();
          await env.context.request({
            method: 'DELETE',
            url: `/api/v1/internal/webhooks/endpoints/${endpoint.id}`,
            headers: project.headers.admin,
          });
          if (allowed) {
            expect(sent.body.error_message ?? '').not.toMatch(/not allowed/);
            expect(attempt?.error ?? '').not.toMatch(/not allowed/);
            if (reachable(row)) {
              expect(sent.body).toEqual({ success: true });
              expect(attempt).toMatchObject({ succeeded: true, status_code: 200, response_excerpt: '' });
            }
            return;
          }
          expect(sent.body.success).toBe(false);
          expect(sent.body.error_message).toMatch(/^The webhook URL is not allowed: its host (is not a public address|does not resolve)/);
          expect(attempt).toMatchObject({ succeeded: false, status_code: null, response_excerpt: '' });
          expect(attempt?.error).toMatch(/^The webhook URL is not allowed/);
          expect(tripwire.to(receiverPort()).length).toBe(before.attempts);
          expect(receiver.received.length).toBe(before.received);
        });

        it(`the test email and the project's own SMTP server ${allowed ? 'reach' : 'never connect to'} it`, async () => {
          const project = projects[mode];
          const before = { attempts: tripwire.to(sink.port).length, received: sink.messages.length };
          const tested = await call(project, '/internal/send-test-email', {
            recipient_email: 'owner@example.com',
            email_config: {
              host: bare(row.host),
              port: sink.port,
              username: 'u',
              password: 'p',
              sender_name: 'T',
              sender_email: 't@example.com',
            },
          });
          const own = await env.context.services.projects.create({
            displayName: 'SMTP row',
            configOverride: {
              'domains.allowLocalhost': mode === 'local',
              'emails.server': { isShared: false, host: bare(row.host), port: sink.port, senderName: 'T', senderEmail: 't@example.com' },
            },
          });
          const sent = await env.context.services.email.deliver(own, {
            to: 'user@example.com',
            kind: 'test',
            subject: row.what,
            html: '<p>x</p>',
            text: 'x',
          });
          const [row_] = await env.context.services.email.listOutbox(own.id, 1);
          if (allowed) {
            expect(tested.body.error_message ?? '').not.toBe(smtpFailures.notAllowed);
            expect(row_?.error ?? '').not.toBe(smtpFailures.notAllowed);
            if (reachable(row)) {
              expect(tested.body).toEqual({ success: true });
              expect(sent.delivered).toBe(true);
            }
            return;
          }
          expect(tested.body).toEqual({ success: false, error_message: smtpFailures.notAllowed });
          expect(sent.delivered).toBe(false);
          expect(row_?.error).toBe(smtpFailures.notAllowed);
          expect(tripwire.to(sink.port).length).toBe(before.attempts);
          expect(sink.messages.length).toBe(before.received);
        });
      });
    }
  });
}

describe('redirects and templates', () => {
  it('a webhook answered with a redirect to another loopback listener is not followed', async () => {
    const target = await startReceiver();
    const redirecting = createServer((_request, response) => {
      response.writeHead(307, { location: target.url }).end();
    });
    await new Promise<void>((done) => redirecting.listen(0, '127.0.0.1', done));
    try {
      const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/hook`;
      const endpoint = (await call(projects.local, '/internal/webhooks/endpoints', { url })).body;
      const sent = await call(projects.local, '/internal/send-test-webhook', { endpoint_id: endpoint.id });
      expect(sent.body).toEqual({ success: false, error_message: 'The endpoint answered HTTP 307.' });
      expect(target.received).toHaveLength(0);
    } finally {
      await Promise.all([target.close(), new Promise((done) => redirecting.close(done))]);
    }
  });

  it('an email template cannot fetch, nor import from a URL', async () => {
    const before = tripwire.to(receiverPort()).length;
    for (const source of [
      `export function EmailTemplate() { fetch('${receiver.url}'); return null; }`,
      `import x from '${receiver.url}';\nexport function EmailTemplate() { return <p>{String(x)}</p>; }`,
    ]) {
      const rendered = await call(projects.local, '/emails/render-email', { template_tsx_source: source, theme_id: false });
      expectError(rendered, 400, 'EMAIL_RENDERING_ERROR');
    }
    expect(tripwire.to(receiverPort()).length).toBe(before);
  });
});
