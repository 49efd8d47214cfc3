import { randomBytes, randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { StripeStandIn } from './stripe-stand-in.ts';
import { createTestContext, type TestProject } from './test-context.ts';

/**
 * The shared setup of the Stripe-mode test files: a local stand-in of Stripe's API driven by the real
 * `stripe` SDK, a platform in Stripe mode with one project whose connected account is set up, and a
 * platform with Stripe mode off. Call `useStripeMode()` once at the top of a test file; the bindings
 * below are live (set by its `beforeAll`).
 */
export const catalogue = {
  testMode: false,
  items: { credits: { displayName: 'Credits', customerType: 'user' } },
  productLines: { plans: { displayName: 'Plans', customerType: 'user' } },
  products: {
    pro: {
      displayName: 'Pro',
      customerType: 'user',
      productLineId: 'plans',
      prices: { monthly: { USD: '9.99', interval: [1, 'month'] } },
      includedItems: { credits: { quantity: 100, expires: 'when-purchase-expires' } },
    },
    pack: {
      displayName: 'Credit pack',
      customerType: 'user',
      stackable: true,
      prices: { once: { USD: '5' } },
      includedItems: { credits: { quantity: 10, expires: 'never' } },
    },
  },
};
export const webhookSecret = 'whsec_test_gatehouse';
export const signer = new Stripe('sk_test_signer');
export const standIn = new StripeStandIn();
export let context: Awaited<ReturnType<typeof createTestContext>>;
export let offContext: Awaited<ReturnType<typeof createTestContext>>;
export let project: TestProject;
export let accountId: string;
/** This file's server sessions in pg_stat_activity (the run's database is shared by every test file). */
export const applicationName = `gatehouse-stripe-test-${randomBytes(4).toString('hex')}`;

export function useStripeMode(): void {
  beforeAll(async () => {
    await standIn.start();
    const databaseUrl = new URL(inject('databaseUrl'));
    databaseUrl.searchParams.set('application_name', applicationName);
    context = await createTestContext({
      databaseUrl: databaseUrl.toString(),
      payments: { stripeSecretKey: 'sk_test_platform', stripeWebhookSecret: webhookSecret, stripeApiUrl: standIn.url },
    });
    offContext = await createTestContext({ payments: { stripeSecretKey: null, stripeWebhookSecret: null, stripeApiUrl: null } });
    project = await context.createProject({ payments: catalogue });
    const setup = await context.request({
      method: 'POST',
      url: '/api/v1/internal/payments/setup',
      headers: project.headers.admin,
      payload: {},
    });
    expect(setup.status, setup.text).toBe(200);
    accountId = [...standIn.accounts.keys()][0] as string;
  }, 60_000);
  afterAll(async () => {
    await context?.close();
    await offContext?.close();
    await standIn.close();
  });
}

type Event = { type: string; object: Record<string, unknown>; id?: string; account?: string };
export function stripeEvent(event: Event) {
  return JSON.stringify({
    id: event.id ?? `evt_${randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type: event.type,
    account: event.account ?? accountId,
    created: Math.floor(Date.now() / 1000),
    data: { object: event.object },
  });
}
export const deliver = (
  payload: string,
  signature: string | null = signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }),
) =>
  context.request({
    method: 'POST',
    url: '/api/v1/integrations/stripe/webhooks',
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'stripe-signature': signature }) },
    payload,
  });
export async function newUser() {
  return context.services.users.create(project.project, { display_name: 'Stripe buyer' }, 'server');
}
export const credits = async (userId: string) =>
  (await context.request({ url: `/api/v1/payments/items/user/${userId}/credits`, headers: project.headers.server })).body.quantity;
export const products = async (userId: string) =>
  (await context.request({ url: `/api/v1/payments/products/user/${userId}`, headers: project.headers.server })).body.items;
export const paymentIntent = (userId: string, productId: string, priceId: string) => ({
  id: `pi_${randomUUID().replaceAll('-', '')}`,
  object: 'payment_intent',
  amount: 500,
  currency: 'usd',
  status: 'succeeded',
  metadata: { customer_type: 'user', customer_id: userId, product_id: productId, price_id: priceId },
});
