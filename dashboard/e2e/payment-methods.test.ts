import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium, withStripeStandIn } from './dashboard-platform.ts';

/**
 * The payment methods of the connected Stripe account on the Payments page, in a real Chromium against the
 * platform on real Postgres and the real `stripe` SDK against a local stand-in of Stripe: the account's default
 * configuration listed with each method's state; a method turned off shows off before the server answers
 * (optimistic) and is off on Stripe after; a change the server refuses (the configuration is gone on Stripe)
 * is put back and the server's message shown verbatim; axe light and dark.
 */
const { standIn, payments } = withStripeStandIn({ connect: true });
const env = withDashboardInChromium({ payments });

const preference = (configId: string, method: string) =>
  (standIn.objects.get(configId) as Record<string, { display_preference: { value: string } }> | undefined)?.[method]?.display_preference
    .value;

describe('the dashboard in Chromium: payment methods', () => {
  it('lists the methods, turns one off at once and on Stripe, and puts back what the server refuses', { timeout: 180_000 }, async () => {
    const shot = screenshots('dashboard-payment-methods');
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 800 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    await createProject(page, 'Methods Co', { newTeam: 'Methods team' });
    await page.getByRole('link', { name: 'Payments', exact: true }).click();
    // No connected account: no payment methods to choose yet.
    await expect.poll(() => page.getByText('Not connected: no Stripe account is connected to this project yet.').isVisible()).toBe(true);
    expect(await page.getByRole('region', { name: 'Payment methods' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Set up Stripe' }).click();

    const methods = page.getByRole('region', { name: 'Payment methods' });
    const card = methods.getByRole('checkbox', { name: 'Card', exact: true });
    const link = methods.getByRole('checkbox', { name: 'Link', exact: true });
    const klarna = methods.getByRole('checkbox', { name: 'Klarna (not available on this account yet)', exact: true });
    await expect.poll(() => link.isChecked(), { timeout: 15_000 }).toBe(true);
    expect(await card.isChecked()).toBe(true);
    expect(await klarna.isChecked()).toBe(false);
    const [config] = standIn.objectsOf('payment_method_configuration');
    const configId = config!.id;
    await shot(page, 'listed');
    await expectAccessible(page, 'the payments page with payment methods');

    // Turned off: shown off while the server is still answering, then off on Stripe.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/v1/internal/payments/method-configs', async (route) => {
      if (route.request().method() === 'PATCH') await held;
      await route.continue();
    });
    await link.click();
    await expect.poll(() => link.isChecked()).toBe(false);
    expect(preference(configId, 'link')).toBe('on');
    release();
    await expect.poll(() => preference(configId, 'link')).toBe('off');
    await page.unroute('**/api/v1/internal/payments/method-configs');
    await expect.poll(() => methods.getByRole('checkbox').first().isDisabled()).toBe(false);
    expect(await link.isChecked()).toBe(false);
    expect(await methods.getByRole('alert').count()).toBe(0);

    // Stripe no longer has that configuration: the server refuses, the change is put back, its message shown.
    standIn.objects.delete(configId);
    await card.click();
    await expect
      .poll(() => methods.getByRole('alert').textContent())
      .toBe(`No payment method configuration ${configId} on this project's Stripe account.`);
    await expect.poll(() => card.isChecked()).toBe(true);
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await shot(page, 'refused-dark');
    await expectAccessible(page, 'the payments page with a refused payment method change, dark');

    // The fresh configuration Stripe answers now is the one the list shows and changes.
    const [fresh] = standIn.objectsOf('payment_method_configuration');
    expect(fresh!.id).not.toBe(configId);
    await expect.poll(() => link.isChecked()).toBe(true);
    await link.click();
    await expect.poll(() => preference(fresh!.id, 'link')).toBe('off');
    await expect.poll(() => methods.getByRole('alert').count()).toBe(0);
  });
});
