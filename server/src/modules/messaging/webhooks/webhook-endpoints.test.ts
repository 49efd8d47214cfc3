import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { type TestProject, withTestContext } from '@gatehouse/testing/test-context';
import { startReceiver } from '@gatehouse/testing/webhook-receiver';
import { postWebhook } from './webhook-sender.ts';

/**
 * Webhook endpoints (admin): create/list/get/update/delete, `whsec_` secrets rotated with a grace
 * period, the portal token of POST /webhooks/svix-token, the SSRF guard and the test message.
 */
const env = withTestContext({ projectConfig: { 'domains.allowLocalhost': true } });
let strict: TestProject;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  strict = await env.context.createProject();
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, payload?: object, headers: Record<string, string> = env.project.headers.admin) =>
  env.context.request({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });

describe('webhook endpoints', () => {
  it('are created with a whsec_ secret, listed, read, changed and deleted', async () => {
    const created = await call('POST', '/internal/webhooks/endpoints', {
      url: receiver.url,
      description: 'orders',
      event_types: ['user.created', 'user.created', 'team.created'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      url: receiver.url,
      description: 'orders',
      event_types: ['user.created', 'team.created'],
      enabled: true,
      disabled_reason: null,
      previous_secret_expires_at_millis: null,
    });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const id = created.body.id as string;

    // The secret is shown once: no read (list, get, update) carries it again.
    const { secret, ...withoutSecret } = created.body;
    const list = await call('GET', '/internal/webhooks/endpoints');
    expect(list.status).toBe(200);
    expect(list.body.items.find((item: { id: string }) => item.id === id)).toEqual(withoutSecret);
    const read = await call('GET', `/internal/webhooks/endpoints/${id}`);
    expect(read.body).toEqual(withoutSecret);
    expect(read.text).not.toContain(secret);

    const updated = await call('PATCH', `/internal/webhooks/endpoints/${id}`, { enabled: false, event_types: [] });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ enabled: false, event_types: [], description: 'orders' });
    expect(updated.body).not.toHaveProperty('secret');
    expect(list.text + updated.text).not.toContain(secret);

    // Another project sees none of it.
    expect((await call('GET', `/internal/webhooks/endpoints/${id}`, undefined, strict.headers.admin)).status).toBe(404);
    expect((await call('GET', '/internal/webhooks/endpoints', undefined, strict.headers.admin)).body.items).toEqual([]);

    expect((await call('DELETE', `/internal/webhooks/endpoints/${id}`)).body).toEqual({ success: true });
    expectError(await call('GET', `/internal/webhooks/endpoints/${id}`), 404, 'WEBHOOK_ENDPOINT_NOT_FOUND', { endpoint_id: id });
  });

  it('answer WEBHOOK_ENDPOINT_NOT_FOUND for an unknown id on every operation', async () => {
    const id = randomUUID();
    expectError(await call('GET', `/internal/webhooks/endpoints/${id}`), 404, 'WEBHOOK_ENDPOINT_NOT_FOUND', { endpoint_id: id });
    expectError(await call('PATCH', `/internal/webhooks/endpoints/${id}`, { description: 'x' }), 404, 'WEBHOOK_ENDPOINT_NOT_FOUND');
    expectError(await call('DELETE', `/internal/webhooks/endpoints/${id}`), 404, 'WEBHOOK_ENDPOINT_NOT_FOUND');
    expectError(await call('POST', `/internal/webhooks/endpoints/${id}/rotate-secret`, {}), 404, 'WEBHOOK_ENDPOINT_NOT_FOUND');
  });

  it('refuse bad input with a catalogued 400', async () => {
    expectError(
      await call('POST', '/internal/webhooks/endpoints', { url: receiver.url, event_types: ['Not A Type'] }),
      400,
      'SCHEMA_ERROR',
    );
    expectError(await call('POST', '/internal/webhooks/endpoints', { description: 'no url' }), 400, 'SCHEMA_ERROR');
    expectError(await call('POST', '/internal/webhooks/endpoints', { url: 'ftp://example.com/' }), 400, 'WEBHOOK_ENDPOINT_URL_NOT_ALLOWED');
    expectError(await call('POST', '/internal/webhooks/endpoints', { url: 'not a url' }), 400, 'WEBHOOK_ENDPOINT_URL_NOT_ALLOWED');
  });
});

describe('the SSRF guard', () => {
  const refused = [
    'http://127.0.0.1:9/',
    'http://localhost/',
    'http://[::1]/',
    'http://169.254.169.254/latest/meta-data',
    'http://10.1.2.3/',
    'http://172.20.0.1/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://2130706433/',
  ];

  it('refuses endpoints on private, loopback and link-local addresses unless the project allows localhost', async () => {
    for (const url of refused) {
      const response = await call('POST', '/internal/webhooks/endpoints', { url }, strict.headers.admin);
      expectError(response, 400, 'WEBHOOK_ENDPOINT_URL_NOT_ALLOWED');
      expect(response.body.details.url).toBe(url);
    }
    // A public address is accepted (no request is made on creation).
    const publicOne = await call('POST', '/internal/webhooks/endpoints', { url: 'https://93.184.216.34/hooks' }, strict.headers.admin);
    expect(publicOne.status).toBe(201);
    // ...and cannot be moved onto a private one.
    expectError(
      await call('PATCH', `/internal/webhooks/endpoints/${publicOne.body.id}`, { url: 'http://127.0.0.1/' }, strict.headers.admin),
      400,
      'WEBHOOK_ENDPOINT_URL_NOT_ALLOWED',
    );
    // The project that allows localhost may use it.
    expect((await call('POST', '/internal/webhooks/endpoints', { url: 'http://localhost:9/' })).status).toBe(201);
  });

  it('checks again when connecting: a name that resolves to loopback is refused at delivery time', async () => {
    const before = receiver.received.length;
    for (const url of [receiver.url, receiver.url.replace('127.0.0.1', 'localhost')]) {
      const outcome = await postWebhook({ url, body: '{}', headers: {}, timeoutMillis: 2000, policy: { allowLoopback: false } });
      expect(outcome).toMatchObject({ ok: false, status: null });
      expect(outcome.error).toMatch(/^The webhook URL is not allowed/);
    }
    expect(receiver.received.length).toBe(before);
  });
});

describe('secrets and test messages', () => {
  it('rotate: the new secret signs at once and the old one keeps signing for the grace period', async () => {
    const created = (await call('POST', '/internal/webhooks/endpoints', { url: receiver.url })).body;
    const rotated = await call('POST', `/internal/webhooks/endpoints/${created.id}/rotate-secret`, { grace_period_seconds: 3600 });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(created.secret);
    expect(rotated.body.previous_secret_expires_at_millis).toBeGreaterThan(Date.now() + 3_500_000);

    const sent = await call('POST', '/internal/send-test-webhook', { endpoint_id: created.id });
    expect(sent.body).toEqual({ success: true });
    const message = receiver.received.at(-1);
    if (!message) throw new Error('no message');
    expect(JSON.parse(message.body)).toMatchObject({ type: 'test' });
    const headers = message.headers as Record<string, string>;
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    // A receiver holding either secret verifies the message; one holding another does not.
    for (const secret of [created.secret, rotated.body.secret])
      expect(new Webhook(secret).verify(message.body, headers)).toMatchObject({ type: 'test' });
    expect(() => new Webhook(`whsec_${Buffer.alloc(24, 7).toString('base64')}`).verify(message.body, headers)).toThrow();

    // Without a grace period the old secret stops at once.
    const again = await call('POST', `/internal/webhooks/endpoints/${created.id}/rotate-secret`, { grace_period_seconds: 0 });
    expect(again.body.previous_secret_expires_at_millis).toBeNull();
    await call('POST', '/internal/send-test-webhook', { endpoint_id: created.id });
    const latest = receiver.received.at(-1);
    if (!latest) throw new Error('no message');
    const latestHeaders = latest.headers as Record<string, string>;
    expect(latestHeaders['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(() => new Webhook(rotated.body.secret).verify(latest.body, latestHeaders)).toThrow();
    expect(new Webhook(again.body.secret).verify(latest.body, latestHeaders)).toBeTruthy();
  });

  it('report a failing endpoint, an unknown one and a refused address', async () => {
    const failing = await startReceiver(() => ({ status: 503, body: 'down for maintenance' }));
    try {
      const endpoint = (await call('POST', '/internal/webhooks/endpoints', { url: failing.url })).body;
      const sent = await call('POST', '/internal/send-test-webhook', { endpoint_id: endpoint.id });
      // The status only: the receiver's body is never shown back (SSRF, issue #30).
      expect(sent.body).toEqual({ success: false, error_message: 'The endpoint answered HTTP 503.' });
    } finally {
      await failing.close();
    }
    const unknown = await call('POST', '/internal/send-test-webhook', { endpoint_id: randomUUID() });
    expect(unknown.body.success).toBe(false);
    expect(unknown.body.error_message).toMatch(/No webhook endpoint/);
  });
});

describe('POST /webhooks/svix-token', () => {
  it('answers 201 with a token that manages this project’s webhook endpoints and nothing else', async () => {
    const response = await call('POST', '/webhooks/svix-token', {});
    expect(response.status).toBe(201);
    expect(response.body.token).toMatch(/^whpt_/);
    expect(response.body.url).toMatch(/\/api\/v1\/internal\/webhooks\/endpoints$/);
    const asToken = { ...env.project.headers.admin, 'x-stack-super-secret-admin-key': response.body.token };

    const created = await call('POST', '/internal/webhooks/endpoints', { url: receiver.url, description: 'via portal' }, asToken);
    expect(created.status).toBe(201);
    expect((await call('GET', '/internal/webhooks/endpoints', undefined, asToken)).status).toBe(200);
    expect((await call('POST', '/internal/send-test-webhook', { endpoint_id: created.body.id }, asToken)).body).toEqual({ success: true });

    // Not a key for anything else, nor for another project.
    expectError(await call('GET', '/internal/api-keys', undefined, asToken), 401, 'INVALID_SUPER_SECRET_ADMIN_KEY');
    expectError(await call('GET', '/internal/projects/current', undefined, asToken), 401, 'INVALID_SUPER_SECRET_ADMIN_KEY');
    expectError(
      await call('GET', '/internal/webhooks/endpoints', undefined, {
        ...strict.headers.admin,
        'x-stack-super-secret-admin-key': response.body.token,
      }),
      401,
      'INVALID_SUPER_SECRET_ADMIN_KEY',
    );
    const forged = `${response.body.token.slice(0, -2)}AA`;
    expectError(
      await call('GET', '/internal/webhooks/endpoints', undefined, { ...asToken, 'x-stack-super-secret-admin-key': forged }),
      401,
      'INVALID_SUPER_SECRET_ADMIN_KEY',
    );
  });
});
