import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { startReceiver } from '@gatehouse/testing/webhook-receiver';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * The Webhooks page in a real Chromium against the platform on real Postgres: an endpoint added for a
 * local receiver (the new project allows localhost), its secret shown once and verifying what the
 * receiver gets, a test message, a user's creation delivered and seen in the delivery log (status,
 * latency; never the receiver's body), a replay with the same webhook-id, disable (saved at once), rotation
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
    // The receiver's body is never kept or shown (SSRF, issue #30): the excerpt stays empty.
    expect(cells[5]).toBe('');
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
    // Still no excerpt of the receiver's answer after the replay.
    expect((await row.getByRole('cell').allTextContents())[5]).toBe('');

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
    const [listed] = await endpointsOf();
    expect((await services.webhookEndpoints.get((await services.projects.find(projectId))!.id, listed!.id)).secret).toBe(rotated);
    await page.getByRole('button', { name: 'I have copied it' }).click();

    // Delete behind a confirmation.
    await page.getByRole('button', { name: 'Delete CRM sync' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete endpoint' }).click();
    await expect.poll(() => page.getByText('No endpoints yet.').isVisible()).toBe(true);
    expect(await endpointsOf()).toEqual([]);
  });
});

describe('the dashboard in Chromium: webhook portal access', () => {
  it('creates a portal token that manages the endpoints and nothing else, and copies it', { timeout: 120_000 }, async () => {
    const shot = screenshots('dashboard-webhook-portal');
    const context = await env.browser.newContext({
      viewport: { width: 1024, height: 800 },
      colorScheme: 'dark',
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const page = await context.newPage();
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Portal Co', { newTeam: 'Portal team' });
    await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
    await page.getByRole('button', { name: 'Create portal token' }).click();
    const panel = page.getByRole('region', { name: 'Portal token' });
    await expect.poll(() => panel.isVisible()).toBe(true);
    const [token, url] = await panel.locator('dd code').allTextContents();
    expect(token).toMatch(/^whpt_/);
    expect(url).toBe(`${env.platform.url}/api/v1/internal/webhooks/endpoints`);
    await shot(page, 'portal-token-dark');
    await expectAccessible(page, 'the webhooks page with a portal token (dark)');

    // Copied as it is.
    await page.getByRole('button', { name: 'Copy the portal token' }).click();
    await expect.poll(() => panel.getByText('Copied.').isVisible()).toBe(true);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

    // The token manages this project's endpoints at that URL (a receiver's side adds one), and is refused elsewhere.
    const asToken = {
      'x-stack-project-id': projectId,
      'x-stack-access-type': 'admin',
      'x-stack-super-secret-admin-key': token!,
      'content-type': 'application/json',
    };
    const added = await fetch(url!, {
      method: 'POST',
      headers: asToken,
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hook', description: 'added with the portal token' }),
    });
    expect(added.status).toBe(201);
    const listed = (await (await fetch(url!, { headers: asToken })).json()) as { items: Array<{ description: string }> };
    expect(listed.items.map((item) => item.description)).toEqual(['added with the portal token']);
    const keys = await fetch(`${env.platform.url}/api/v1/internal/api-keys`, { headers: asToken });
    expect(keys.status).toBe(401);
    expect(((await keys.json()) as { code: string }).code).toBe('INVALID_SUPER_SECRET_ADMIN_KEY');
    await page.reload();
    await expect.poll(() => page.getByRole('checkbox', { name: 'Enabled: added with the portal token' }).isVisible()).toBe(true);

    // A new token each time; where the browser gives no clipboard, the page says to copy by hand.
    await page.getByRole('button', { name: 'Create portal token' }).click();
    await expect.poll(async () => (await panel.locator('dd code').allTextContents())[0]).toMatch(/^whpt_/);
    await page.evaluate(() => Object.defineProperty(navigator, 'clipboard', { value: undefined }));
    await page.getByRole('button', { name: 'Copy the portal token' }).click();
    await expect.poll(() => panel.getByText('The browser did not allow copying: select it and copy it by hand.').isVisible()).toBe(true);
    await page.getByLabel('Theme', { exact: true }).selectOption('light');
    await shot(page, 'portal-token-copy-refused-light');
    await expectAccessible(page, 'the webhooks page with a portal token (light)');
    await page.getByRole('button', { name: 'Hide the token' }).click();
    await expect.poll(() => panel.count()).toBe(0);
    await context.close();
  });
});
