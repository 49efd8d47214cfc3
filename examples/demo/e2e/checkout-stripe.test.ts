import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPaymentsCatalogue } from '../../../server/src/bootstrap/demo-catalogue.ts';
import { StripeStandIn, signStripeWebhook } from '@gatehouse/testing/stripe-stand-in';
import { screenshots } from './chromium.ts';
import { createPasswordUser, greetingOf, signInWithPassword, withDemoInChromium } from './e2e-environment.ts';

/**
 * Payments in Stripe mode, in Chromium: the hosted checkout page starts a purchase session (a
 * subscription on the project's connected account, through the real `stripe` SDK against a local
 * stand-in of Stripe's API), mounts the Payment Element of Stripe.js (a stand-in served locally:
 * there is no network) and confirms it, Stripe sends the buyer back to the app, and Stripe's signed
 * `invoice.paid` event grants the plan, whose credits the app then shows. A second plan of the
 * line is refused on the page, naming the plan it conflicts with.
 */
const webhookSecret = 'whsec_e2e_checkout';
const standIn = new StripeStandIn();
beforeAll(async () => {
  await standIn.start();
});
afterAll(async () => {
  await standIn.close();
});
const env = withDemoInChromium(
  { payments: { ...demoPaymentsCatalogue, testMode: false } },
  {
    payments: () => ({
      stripeSecretKey: 'sk_test_platform',
      stripeWebhookSecret: webhookSecret,
      stripeApiUrl: standIn.url,
      stripePublishableKey: 'pk_test_platform',
      stripeJsUrl: `${standIn.url}/v3/`,
    }),
  },
);

describe('checkout in Stripe mode', () => {
  it('pays a plan through Stripe.js, returns to the app, gets its credits from the webhook, refuses a second plan', {
    timeout: 120_000,
  }, async () => {
    const { context, project, url } = env.platform;
    const setup = await context.request({
      method: 'POST',
      url: '/api/v1/internal/payments/setup',
      headers: project.headers.admin,
      payload: {},
    });
    expect(setup.status, setup.text).toBe(200);
    const accountId = [...standIn.accounts.keys()][0] as string;

    const shot = screenshots('checkout-stripe');
    const page = await env.browser.newPage();
    const user = await createPasswordUser(env.platform, 'stripe-buyer');
    await signInWithPassword(page, url, user);
    await expect.poll(() => greetingOf(page)).toBe(`Hello, ${user.email}`);
    await page.goto(`${url}/shop`);
    await expect.poll(() => page.getByTestId('credits').textContent()).toBe('Credits: 0');

    await page.getByRole('button', { name: 'Buy Pro' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Pro' }).isVisible()).toBe(true);
    expect(await page.getByText('Test mode').count()).toBe(0);
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await expect.poll(() => page.getByLabel('Card number (Stripe stand-in)').isVisible()).toBe(true);
    await shot(page, 'payment-element');
    const subscription = standIn.objectsOf('subscription').at(-1) as Record<string, unknown>;
    expect(subscription).toMatchObject({ account: accountId, status: 'incomplete' });
    expect(subscription.metadata).toMatchObject({ customer_type: 'user', product_id: 'pro', price_id: 'monthly' });
    await page.getByRole('button', { name: 'Pay' }).click();

    await expect.poll(() => new URL(page.url()).pathname).toBe('/shop');
    expect(new URL(page.url()).searchParams.get('redirect_status')).toBe('succeeded');
    const confirm = standIn.calls('GET', '/stand-in/confirm').at(-1);
    expect(confirm?.body.get('publishable_key')).toBe('pk_test_platform');
    expect(confirm?.body.get('account')).toBe(accountId);

    // Stripe reports the first invoice paid: the plan is granted once.
    const now = Math.floor(Date.now() / 1000);
    const payload = JSON.stringify({
      id: 'evt_e2e_invoice_paid',
      object: 'event',
      type: 'invoice.paid',
      account: accountId,
      created: now,
      data: {
        object: {
          id: 'in_e2e',
          object: 'invoice',
          lines: { data: [{ period: { start: now, end: now + 30 * 86_400 } }] },
          parent: { subscription_details: { subscription: subscription.id, metadata: subscription.metadata } },
        },
      },
    });
    const signature = signStripeWebhook(payload, webhookSecret);
    const delivered = await context.request({
      method: 'POST',
      url: '/api/v1/integrations/stripe/webhooks',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload,
    });
    expect(delivered.body).toEqual({ received: true, applied: true });
    await page.reload();
    await expect.poll(() => page.getByTestId('credits').textContent()).toBe('Credits: 100');
    await shot(page, 'shop-after-pro');

    await page.getByRole('button', { name: 'Buy Max' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Max' }).isVisible()).toBe(true);
    await expect.poll(() => page.locator('#conflict').textContent()).toContain('You already own Pro of the same product line');
    expect(await page.getByRole('button', { name: 'Continue to payment' }).isDisabled()).toBe(true);
    await shot(page, 'checkout-max-conflict');
    await page.close();
  });
});
