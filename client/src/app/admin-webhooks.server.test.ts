import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { withTestContext } from '@gatehouse/testing/test-context';
import { startReceiver } from '@gatehouse/testing/webhook-receiver';
import { WebhookEndpointNotFoundError, WebhookEndpointUrlNotAllowedError, WebhookMessageNotFoundError } from '../errors.ts';
import { createAdminApp } from './admin-app.ts';

/**
 * The admin app's webhooks against the real server over HTTP: endpoint CRUD, enable/disable, secret
 * rotation, a delivery seen in the log (attempts with status, latency, excerpt), replay, test messages,
 * the portal token, and the catalogued errors as their classes.
 */
const env = withTestContext({ listen: true, projectConfig: { 'domains.allowLocalhost': true } });
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});
const adminApp = (superSecretAdminKey = env.project.keys.super_secret_admin_key) =>
  createAdminApp({ baseUrl: env.baseUrl, projectId: env.project.project.id, superSecretAdminKey });

async function deliverUntil(done: () => Promise<boolean>) {
  const deadline = Date.now() + 15_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error('not delivered in time');
    await env.context.services.webhookDelivery.deliverDue();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('admin webhooks SDK', () => {
  it('creates, lists, reads, changes, rotates and deletes endpoints', async () => {
    const { webhooks } = adminApp();
    const created = await webhooks.createEndpoint({ url: 'http://127.0.0.1:9/hook', description: 'CRM', event_types: ['user.created'] });
    expect(created).toMatchObject({ url: 'http://127.0.0.1:9/hook', description: 'CRM', event_types: ['user.created'], enabled: true });
    expect(created.secret).toMatch(/^whsec_/);
    expect((await webhooks.listEndpoints()).map((endpoint) => endpoint.id)).toContain(created.id);
    const { secret, ...withoutSecret } = created;
    expect(await webhooks.getEndpoint(created.id)).toEqual(withoutSecret);
    expect(JSON.stringify(await webhooks.listEndpoints())).not.toContain(secret);

    const paused = await webhooks.updateEndpoint(created.id, { enabled: false, description: 'CRM (paused)' });
    expect(paused).toMatchObject({ enabled: false, description: 'CRM (paused)', url: created.url });
    const rotated = await webhooks.rotateSecret(created.id, { gracePeriodSeconds: 60 });
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.previous_secret_expires_at_millis).toBeGreaterThan(Date.now());
    const dropped = await webhooks.rotateSecret(created.id, { gracePeriodSeconds: 0 });
    expect(dropped.previous_secret_expires_at_millis).toBeNull();

    await webhooks.deleteEndpoint(created.id);
    expect((await webhooks.listEndpoints()).map((endpoint) => endpoint.id)).not.toContain(created.id);
    await expect(webhooks.getEndpoint(created.id)).rejects.toBeInstanceOf(WebhookEndpointNotFoundError);
    await expect(webhooks.updateEndpoint(created.id, { enabled: true })).rejects.toBeInstanceOf(WebhookEndpointNotFoundError);
    await expect(webhooks.deleteEndpoint(created.id)).rejects.toBeInstanceOf(WebhookEndpointNotFoundError);
  });

  it('refuses a private address when the project does not allow localhost', async () => {
    const strict = await env.context.createProject({ 'domains.allowLocalhost': false });
    const strictApp = createAdminApp({
      baseUrl: env.baseUrl,
      projectId: strict.project.id,
      superSecretAdminKey: strict.keys.super_secret_admin_key,
    });
    await expect(strictApp.webhooks.createEndpoint({ url: 'http://10.0.0.7/hook' })).rejects.toBeInstanceOf(
      WebhookEndpointUrlNotAllowedError,
    );
    await expect(strictApp.webhooks.createEndpoint({ url: 'http://169.254.169.254/latest' })).rejects.toBeInstanceOf(
      WebhookEndpointUrlNotAllowedError,
    );
    expect(await strictApp.webhooks.listEndpoints()).toEqual([]);
  });

  it('shows a delivery in the log, replays it, and sends a test message', async () => {
    const receiver = await startReceiver((_message, index) =>
      index === 0 ? { status: 503, body: 'busy' } : { status: 200, body: 'thanks' },
    );
    closers.push(receiver.close);
    const { webhooks, users } = adminApp();
    const endpoint = await webhooks.createEndpoint({ url: receiver.url, event_types: ['user.created'] });
    const user = await users.create({ display_name: 'Logged' });

    // The first attempt answers 503 (logged, pending); a replay delivers it at once.
    await deliverUntil(async () => (await webhooks.listMessages(endpoint.id))[0]?.attempts === 1);
    const [pending] = await webhooks.listMessages(endpoint.id);
    expect(pending).toMatchObject({ event_type: 'user.created', status: 'pending', attempts: 1 });
    expect(pending?.payload).toMatchObject({ type: 'user.created', data: { id: user.id, display_name: 'Logged' } });
    expect(pending?.attempt_log).toEqual([
      expect.objectContaining({
        attempt: 1,
        succeeded: false,
        status_code: 503,
        // The receiver's answer ('busy') is never read back (the outbound guard, issue #30).
        response_excerpt: '',
        latency_millis: expect.any(Number),
      }),
    ]);
    const replayed = await webhooks.replayMessage(endpoint.id, pending!.id);
    expect(replayed).toMatchObject({ id: pending!.id, status: 'pending' });
    await deliverUntil(async () => (await webhooks.listMessages(endpoint.id))[0]?.status === 'delivered');
    const [delivered] = await webhooks.listMessages(endpoint.id);
    expect(delivered?.attempt_log.map((attempt) => [attempt.attempt, attempt.status_code, attempt.response_excerpt])).toEqual([
      [1, 503, ''],
      [2, 200, ''],
    ]);
    const verifier = new Webhook(endpoint.secret);
    const last = receiver.received.at(-1)!;
    expect(verifier.verify(last.body, last.headers as Record<string, string>)).toMatchObject({ type: 'user.created' });
    expect(new Set(receiver.received.map((message) => message.headers['webhook-id'])).size).toBe(1);
    await expect(webhooks.replayMessage(endpoint.id, 'msg_00000000000000000000000000000000')).rejects.toBeInstanceOf(
      WebhookMessageNotFoundError,
    );

    expect(await webhooks.sendTestMessage(endpoint.id)).toEqual({ success: true, errorMessage: null });
    const test = receiver.received.at(-1)!;
    expect(verifier.verify(test.body, test.headers as Record<string, string>)).toMatchObject({ type: 'test' });
    const unknown = await webhooks.sendTestMessage('00000000-0000-4000-8000-000000000000');
    expect(unknown.success).toBe(false);
    expect(unknown.errorMessage).toEqual(expect.any(String));

    const portal = await webhooks.createPortalToken();
    expect(portal.token).toEqual(expect.any(String));
    const viaPortal = createAdminApp({ baseUrl: env.baseUrl, projectId: env.project.project.id, superSecretAdminKey: portal.token });
    expect((await viaPortal.webhooks.listEndpoints()).map((listed) => listed.id)).toContain(endpoint.id);
  });
});
