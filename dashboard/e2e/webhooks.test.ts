import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { startReceiver } from '../../server/src/testing/webhook-receiver.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * The Webhooks page in a real Chromium against the platform on real Postgres: an endpoint added for a
 * local receiver (the new project allows localhost), its secret shown once and verifying what the
 * receiver gets, a test message, a user's creation delivered and seen in the delivery log (status,
 * latency, response excerpt), a replay with the same webhook-id, disable (saved at once), rotation
 * and deletion; axe on both pages, light and dark.
 */
const env = withDashboardInChromium();
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

describe('the dashboard in Chromium: webhooks', () => {
  it('adds an endpoint, sees a delivery in its log, replays it, disables, rotates and deletes it', { timeout: 180_000 }, async () => {
    const shot = screenshots('dashboard-webhooks');
    const receiver = await startReceiver((_message, index) => ({ status: 200, body: `received #${index + 1}` }));
    closers.push(receiver.close);
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 800 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Hooks Co', { newTeam: 'Hooks team' });
    const { services } = env.platform.context;
    const endpointsOf = async () => services.webhookEndpoints.list((await services.projects.find(projectId))!.id);

    await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
    await expect.poll(() => page.getByText('No endpoints yet.').isVisible()).toBe(true);
    await page.getByLabel('Endpoint URL', { exact: true }).fill(receiver.url);
    await page.getByLabel('Description', { exact: true }).fill('CRM sync');
    await page.getByLabel('Event types', { exact: true }).fill('user.created, user.updated');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secretPanel = page.getByRole('region', { name: 'Signing secret' });
    await expect.poll(() => secretPanel.isVisible()).toBe(true);
    const secret = (await secretPanel.locator('dd code').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await shot(page, 'endpoint-added-secret-once');
    await expectAccessible(page, 'the webhooks page with a new secret');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await expect.poll(() => secretPanel.count()).toBe(0);
    // The secret is not on the page any more.
    expect(await page.content()).not.toContain(secret);
    const [stored] = await endpointsOf();
    expect(stored).toMatchObject({
      url: receiver.url,
      description: 'CRM sync',
      event_types: ['user.created', 'user.updated'],
      enabled: true,
    });

    // A test message, signed with that secret.
    await page.getByRole('button', { name: 'Send test to CRM sync' }).click();
    await expect.poll(() => page.getByText('The test message was accepted.').isVisible()).toBe(true);
    const verifier = new Webhook(secret);
    const [test] = await receiver.waitFor(1);
    expect(verifier.verify(test!.body, test!.headers as Record<string, string>)).toMatchObject({ type: 'test' });

    // A user is created; the worker delivers; the log shows it.
    const project = (await services.projects.find(projectId))!;
    const user = await services.users.create(project, { display_name: 'Hooked User' }, 'server');
    const deadline = Date.now() + 20_000;
    while (receiver.received.length < 2 && Date.now() < deadline) {
      await services.webhookDelivery.deliverDue();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const delivered = receiver.received[1]!;
    expect(verifier.verify(delivered.body, delivered.headers as Record<string, string>)).toMatchObject({
      type: 'user.created',
      data: { id: user.id, display_name: 'Hooked User' },
    });
    await page.getByRole('link', { name: 'Delivery log' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/\/webhooks\/[0-9a-f-]{36}$/);
    const log = page.getByRole('table', { name: 'Deliveries' });
    await expect.poll(() => log.textContent(), { timeout: 10_000 }).toContain('delivered');
    const row = log.getByRole('row').nth(1);
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells[0]).toContain('user.created');
    expect(cells.slice(1, 4)).toEqual(['delivered', '1', '200']);
    expect(cells[4]).toMatch(/^\d+ ms$/);
    expect(cells[5]).toBe('received #2');
    await shot(page, 'delivery-log');
    await expectAccessible(page, 'the delivery log');

    // Replay: the same webhook-id again, a second attempt in the log.
    await row.getByRole('button', { name: /^Replay user\.created/ }).click();
    const replayDeadline = Date.now() + 20_000;
    while (receiver.received.length < 3 && Date.now() < replayDeadline) {
      await services.webhookDelivery.deliverDue();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(receiver.received[2]?.headers['webhook-id']).toBe(delivered.headers['webhook-id']);
    await expect
      .poll(async () => (await row.getByRole('cell').allTextContents()).slice(1, 4), { timeout: 10_000 })
      .toEqual(['delivered', '2', '200']);
    await expect.poll(async () => (await row.getByRole('cell').allTextContents())[5]).toBe('received #3');

    // Back to the endpoints, keyboard only: disable it (saved at once), in the dark theme.
    await page.getByRole('link', { name: 'All endpoints' }).click();
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    const enabled = page.getByRole('checkbox', { name: 'Enabled: CRM sync' });
    await enabled.focus();
    await page.keyboard.press('Space');
    await expect.poll(async () => (await endpointsOf())[0]?.enabled).toBe(false);
    await expect.poll(() => enabled.isChecked()).toBe(false);
    await shot(page, 'endpoint-disabled-dark');
    await expectAccessible(page, 'the webhooks page in the dark theme');

    // Edit: the server's refusal of a bad event type is shown at the form, nothing changes.
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('New event types', { exact: true }).fill('Not An Event');
    await page.getByRole('button', { name: 'Save endpoint' }).click();
    await expect.poll(() => page.getByRole('alert').count()).toBeGreaterThan(0);
    expect((await endpointsOf())[0]?.event_types).toEqual(['user.created', 'user.updated']);
    await page.getByLabel('New event types', { exact: true }).fill('user.created');
    await page.getByRole('button', { name: 'Save endpoint' }).click();
    await expect.poll(async () => (await endpointsOf())[0]?.event_types).toEqual(['user.created']);

    // Rotate: a new secret shown once, the old one still signing beside it.
    await page.getByRole('button', { name: 'Rotate secret of CRM sync' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
    await expect.poll(() => secretPanel.isVisible()).toBe(true);
    const rotated = (await secretPanel.locator('dd code').textContent()) ?? '';
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    expect((await endpointsOf())[0]?.secret).toBe(rotated);
    await page.getByRole('button', { name: 'I have copied it' }).click();

    // Delete behind a confirmation.
    await page.getByRole('button', { name: 'Delete CRM sync' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete endpoint' }).click();
    await expect.poll(() => page.getByText('No endpoints yet.').isVisible()).toBe(true);
    expect(await endpointsOf()).toEqual([]);
  });
});
