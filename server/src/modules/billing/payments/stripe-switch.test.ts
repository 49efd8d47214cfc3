import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { StripeStandIn } from '@gatehouse/testing/stripe-stand-in';
import { createTestContext, type TestProject } from '@gatehouse/testing/test-context';
import { newSignedInUser } from '@gatehouse/testing/users-fixture';

/**
 * Switching within a product line in Stripe mode (docs/protocol/endpoints.md §22) with the real `stripe` SDK against
 * the local stand-in of Stripe's API: the customer's default payment method is charged off-session on
 * the connected account (a Stripe subscription moved to the new price, a new paid subscription, or a
 * one-time payment), the customer owns the target when the call answers, Stripe's events of that charge
 * never grant it twice and renew it exactly once per event; no default payment method is
 * DEFAULT_PAYMENT_METHOD_REQUIRED, a refused card PAYMENT_METHOD_DECLINED with nothing changed.
 */
const catalogue = {
  testMode: false,
  items: { credits: { displayName: 'Credits', customerType: 'user' } },
  productLines: { plans: { displayName: 'Plans', customerType: 'user' } },
  products: {
    pro: {
      displayName: 'Pro',
      customerType: 'user',
      productLineId: 'plans',
      prices: { monthly: { USD: '9.99', interval: [1, 'month'] } },
      includedItems: { credits: { quantity: 100, repeat: [1, 'month'], expires: 'when-repeated' } },
    },
    max: {
      displayName: 'Max',
      customerType: 'user',
      productLineId: 'plans',
      prices: { monthly: { USD: '29', interval: [1, 'month'] }, yearly: { EUR: '290', interval: [1, 'year'] } },
      includedItems: { credits: { quantity: 1000, repeat: [1, 'month'], expires: 'when-repeated' } },
    },
    starter: {
      displayName: 'Starter',
      customerType: 'user',
      productLineId: 'plans',
      prices: 'include-by-default',
      includedItems: { credits: { quantity: 5 } },
    },
    lifetime: {
      displayName: 'Lifetime',
      customerType: 'user',
      productLineId: 'plans',
      prices: { once: { USD: '199' } },
      includedItems: { credits: { quantity: 500, expires: 'never' } },
    },
  },
};
const webhookSecret = 'whsec_test_switch';
const signer = new Stripe('sk_test_signer');
const standIn = new StripeStandIn();
let context: Awaited<ReturnType<typeof createTestContext>>;
let project: TestProject;
let accountId: string;

beforeAll(async () => {
  await standIn.start();
  context = await createTestContext({
    payments: { stripeSecretKey: 'sk_test_platform', stripeWebhookSecret: webhookSecret, stripeApiUrl: standIn.url },
  });
  project = await context.createProject({ payments: catalogue });
  const setup = await post('/internal/payments/setup', project.headers.admin, {});
  expect(setup.status, setup.text).toBe(200);
  accountId = [...standIn.accounts.keys()][0] as string;
}, 60_000);
afterAll(async () => {
  await context?.close();
  await standIn.close();
});

type Headers = Record<string, string>;
const post = (url: string, headers: Headers, payload: object) =>
  context.request({ method: 'POST', url: `/api/v1${url}`, headers, payload });
const get = (url: string, headers: Headers) => context.request({ url: `/api/v1${url}`, headers });
const newUser = () => newSignedInUser(context, project, { display_name: 'Switcher' });
function deliver(event: { type: string; object: Record<string, unknown>; id?: string }) {
  const payload = JSON.stringify({
    id: event.id ?? `evt_${randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type: event.type,
    account: accountId,
    created: Math.floor(Date.now() / 1000),
    data: { object: event.object },
  });
  return context.request({
    method: 'POST',
    url: '/api/v1/integrations/stripe/webhooks',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }),
    },
    payload,
  });
}
const credits = async (userId: string) => (await get(`/payments/items/user/${userId}/credits`, project.headers.server)).body.quantity;
const owned = async (userId: string) =>
  (await get(`/payments/products/user/${userId}`, project.headers.server)).body.items as Array<{
    id: string;
    subscription: { current_period_end: string | null };
  }>;
const latest = (kind: string) => standIn.objectsOf(kind).at(-1) as Record<string, unknown> & { id: string };
/** The customer's product rows, oldest first (what the switch and the webhook wrote). */
const rowsOf = (userId: string) =>
  context.database.db
    .selectFrom('payment_customer_product')
    .select(['product_id', 'price_id', 'status', 'source', 'stripe_subscription_id', 'stripe_payment_intent_id', 'amount', 'currency'])
    .where('project_id', '=', project.project.id as never)
    .where('customer_id', '=', userId)
    .orderBy('created_at')
    .execute();
const switchProduct = (user: { id: string; client: Headers }, body: object) =>
  post(`/payments/products/user/${user.id}/switch`, user.client, body);

/** Saves a card as the customer's default payment method the way the account pages do: setup intent, Stripe.js confirms, set-default. */
async function saveCard(user: { id: string; client: Headers }): Promise<string> {
  const setup = await post(`/payments/payment-method/user/${user.id}/setup-intent`, user.client, {});
  expect(setup.status, setup.text).toBe(200);
  const intent = latest('setup_intent');
  const methodId = standIn.succeedSetupIntent(intent.id, { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 });
  const set = await post(`/payments/payment-method/user/${user.id}/set-default`, user.client, { setup_intent_id: intent.id });
  expect(set.status, set.text).toBe(200);
  return methodId;
}

/** Buys Pro monthly through the checkout (purchase session + the first paid invoice): a Stripe subscription. */
async function buyProSubscription(user: { id: string }): Promise<{ id: string; metadata: Record<string, string> }> {
  const url = await post('/payments/purchases/create-purchase-url', project.headers.server, {
    customer_type: 'user',
    customer_id: user.id,
    product_id: 'pro',
  });
  const code = new URL(url.body.url).searchParams.get('code') as string;
  const started = await post('/payments/purchases/purchase-session', {}, { full_code: code, price_id: 'monthly' });
  expect(started.status, started.text).toBe(200);
  const subscription = latest('subscription') as { id: string; metadata: Record<string, string> };
  const paid = await deliver({ type: 'invoice.paid', object: invoice(subscription, Math.floor(Date.now() / 1000) + 30 * day) });
  expect(paid.body.applied).toBe(true);
  return subscription;
}
const day = 86_400;
function invoice(subscription: { id: string; metadata?: Record<string, string> }, periodEnd: number) {
  return {
    id: `in_${randomUUID().replaceAll('-', '')}`,
    object: 'invoice',
    currency: 'usd',
    lines: { data: [{ period: { start: periodEnd - 30 * day, end: periodEnd } }] },
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: subscription.id, metadata: subscription.metadata ?? {} },
    },
  };
}

describe('POST /payments/products/{customer_type}/{customer_id}/switch in Stripe mode', () => {
  it('without a default payment method: DEFAULT_PAYMENT_METHOD_REQUIRED and nothing is charged', async () => {
    const user = await newUser();
    expect((await post(`/payments/products/user/${user.id}`, project.headers.server, { product_id: 'pro' })).status).toBe(200);
    const calls = standIn.requests.length;
    const refused = await switchProduct(user, { from_product_id: 'pro', to_product_id: 'max' });
    expectError(refused, 400, 'DEFAULT_PAYMENT_METHOD_REQUIRED', { customer_type: 'user', customer_id: user.id });
    expect(standIn.requests.length).toBe(calls);
    // A Stripe customer without a saved card is no better.
    await post(`/payments/payment-method/user/${user.id}/setup-intent`, user.client, {});
    expectError(await switchProduct(user, { from_product_id: 'pro', to_product_id: 'max' }), 400, 'DEFAULT_PAYMENT_METHOD_REQUIRED');
    expect(
      standIn.calls('POST', '/v1/subscriptions').filter((call) => call.body.get('customer') === latest('setup_intent').customer),
    ).toEqual([]);
    expect((await owned(user.id)).map((product) => product.id)).toEqual(['pro']);
  });

  it('from a granted product: a new subscription charged to the saved card off-session; its first invoice and renewals apply once', async () => {
    const user = await newUser();
    await post(`/payments/products/user/${user.id}`, project.headers.server, { product_id: 'pro' });
    const methodId = await saveCard(user);
    const switched = await switchProduct(user, { from_product_id: 'pro', to_product_id: 'max', price_id: 'monthly' });
    expect(switched.status, switched.text).toBe(200);
    expect(switched.body).toEqual({ success: true });

    const call = standIn.calls('POST', '/v1/subscriptions').at(-1);
    expect(call?.stripeAccount).toBe(accountId);
    const customerId = latest('setup_intent').customer;
    expect(Object.fromEntries(call?.body ?? [])).toMatchObject({
      customer: customerId,
      default_payment_method: methodId,
      off_session: 'true',
      payment_behavior: 'error_if_incomplete',
      'items[0][price_data][currency]': 'usd',
      'items[0][price_data][unit_amount]': '2900',
      'items[0][price_data][recurring][interval]': 'month',
      'items[0][quantity]': '1',
      'metadata[product_id]': 'max',
      'metadata[price_id]': 'monthly',
      'metadata[customer_id]': user.id,
    });
    const subscription = latest('subscription') as { id: string; status: string; metadata: Record<string, string> };
    expect(subscription.status).toBe('active');
    const itemEnd = (subscription as unknown as { items: { data: [{ current_period_end: number }] } }).items.data[0].current_period_end;

    const products = await owned(user.id);
    expect(products.map((product) => product.id)).toEqual(['max']);
    expect(products[0]?.subscription.current_period_end).toBe(new Date(itemEnd * 1000).toISOString());
    expect(await credits(user.id)).toBe(1000);
    expect(await rowsOf(user.id)).toEqual([
      expect.objectContaining({ product_id: 'pro', status: 'canceled', source: 'grant', stripe_subscription_id: null }),
      expect.objectContaining({
        product_id: 'max',
        price_id: 'monthly',
        status: 'active',
        source: 'stripe',
        stripe_subscription_id: subscription.id,
        amount: '29',
        currency: 'USD',
      }),
    ]);

    // Stripe's event of the first invoice (it carries the purchase metadata) grants nothing more.
    const first = { type: 'invoice.paid', object: invoice(subscription, itemEnd), id: `evt_${randomUUID()}` };
    expect((await deliver(first)).status).toBe(200);
    expect((await rowsOf(user.id)).filter((row) => row.status === 'active')).toHaveLength(1);
    expect(await credits(user.id)).toBe(1000);
    // A renewal moves the period end on, exactly once per event.
    const renewal = { type: 'invoice.paid', object: invoice(subscription, itemEnd + 31 * day), id: `evt_${randomUUID()}` };
    expect((await deliver(renewal)).body.applied).toBe(true);
    expect((await deliver(renewal)).body.applied).toBe(false);
    expect((await owned(user.id))[0]?.subscription.current_period_end).toBe(new Date((itemEnd + 31 * day) * 1000).toISOString());
    expect(await rowsOf(user.id)).toHaveLength(2);
  });

  it('from a Stripe subscription: that subscription moves to the new price (prorations invoiced at once); renewals and its end apply to the new product', async () => {
    const user = await newUser();
    const subscription = await buyProSubscription(user);
    expect(await credits(user.id)).toBe(100);
    const methodId = await saveCard(user);
    const itemId = (standIn.objects.get(subscription.id) as unknown as { items: { data: [{ id: string }] } }).items.data[0].id;
    const subscriptionsBefore = standIn.objectsOf('subscription').length;

    const switched = await switchProduct(user, { from_product_id: 'pro', to_product_id: 'max', price_id: 'yearly' });
    expect(switched.status, switched.text).toBe(200);
    expect(standIn.objectsOf('subscription')).toHaveLength(subscriptionsBefore);
    const update = standIn.calls('POST', `/v1/subscriptions/${subscription.id}`).at(-1);
    expect(update?.stripeAccount).toBe(accountId);
    expect(Object.fromEntries(update?.body ?? [])).toMatchObject({
      default_payment_method: methodId,
      off_session: 'true',
      payment_behavior: 'error_if_incomplete',
      proration_behavior: 'always_invoice',
      'items[0][id]': itemId,
      'items[0][price_data][currency]': 'eur',
      'items[0][price_data][unit_amount]': '29000',
      'items[0][price_data][recurring][interval]': 'year',
      'metadata[product_id]': 'max',
      'metadata[price_id]': 'yearly',
    });
    const stripeItem = (standIn.objects.get(subscription.id) as unknown as { items: { data: [Record<string, unknown>] } }).items.data[0];
    expect(stripeItem).toMatchObject({ id: itemId, price: expect.objectContaining({ unit_amount: 29000, currency: 'eur' }) });
    expect(latest('invoice')).toMatchObject({ subscription: subscription.id, status: 'paid', billing_reason: 'subscription_update' });

    expect((await owned(user.id)).map((product) => product.id)).toEqual(['max']);
    expect(await credits(user.id)).toBe(1000);
    expect(await rowsOf(user.id)).toEqual([
      expect.objectContaining({ product_id: 'pro', status: 'canceled', stripe_subscription_id: subscription.id }),
      expect.objectContaining({
        product_id: 'max',
        price_id: 'yearly',
        status: 'active',
        source: 'stripe',
        stripe_subscription_id: subscription.id,
        amount: '290',
        currency: 'EUR',
      }),
    ]);

    const periodEnd = Math.floor(Date.now() / 1000) + 365 * day;
    const renewal = { type: 'invoice.paid', object: invoice(subscription, periodEnd), id: `evt_${randomUUID()}` };
    expect((await deliver(renewal)).body.applied).toBe(true);
    expect((await deliver(renewal)).body.applied).toBe(false);
    expect((await owned(user.id))[0]?.subscription.current_period_end).toBe(new Date(periodEnd * 1000).toISOString());
    expect(await rowsOf(user.id)).toHaveLength(2);
    expect(await credits(user.id)).toBe(1000);

    const deleted = { type: 'customer.subscription.deleted', object: { id: subscription.id, object: 'subscription', status: 'canceled' } };
    expect((await deliver(deleted)).body.applied).toBe(true);
    // Back to the line's product included by default.
    expect((await owned(user.id)).map((product) => product.id)).toEqual(['starter']);
    expect(await credits(user.id)).toBe(5);
  });

  it('to a one-time price: a payment intent confirmed off-session, the old subscription canceled; the payment event grants nothing more', async () => {
    const user = await newUser();
    const subscription = await buyProSubscription(user);
    const methodId = await saveCard(user);
    const switched = await switchProduct(user, { from_product_id: 'pro', to_product_id: 'lifetime' });
    expect(switched.status, switched.text).toBe(200);
    const intent = latest('payment_intent');
    expect(intent).toMatchObject({
      account: accountId,
      amount: 19900,
      currency: 'usd',
      payment_method: methodId,
      off_session: true,
      status: 'succeeded',
      metadata: expect.objectContaining({ product_id: 'lifetime', price_id: 'once', customer_id: user.id }),
    });
    expect(standIn.calls('POST', '/v1/payment_intents').at(-1)?.body.get('confirm')).toBe('true');
    expect(standIn.calls('DELETE', `/v1/subscriptions/${subscription.id}`)).toHaveLength(1);
    expect(standIn.objects.get(subscription.id)?.status).toBe('canceled');
    expect((await owned(user.id)).map((product) => product.id)).toEqual(['lifetime']);
    expect(await credits(user.id)).toBe(500);
    expect((await rowsOf(user.id)).at(-1)).toMatchObject({ product_id: 'lifetime', stripe_payment_intent_id: intent.id, source: 'stripe' });

    expect((await deliver({ type: 'payment_intent.succeeded', object: intent })).body.applied).toBe(false);
    const deleted = { type: 'customer.subscription.deleted', object: { id: subscription.id, object: 'subscription', status: 'canceled' } };
    expect((await deliver(deleted)).body.applied).toBe(false);
    expect(await rowsOf(user.id)).toHaveLength(2);
    expect(await credits(user.id)).toBe(500);
  });

  it('to the free product of the line: the Stripe subscription is canceled, nothing is charged', async () => {
    const user = await newUser();
    const subscription = await buyProSubscription(user);
    await saveCard(user);
    const intents = standIn.objectsOf('payment_intent').length;
    const switched = await switchProduct(user, { from_product_id: 'pro', to_product_id: 'starter' });
    expect(switched.status, switched.text).toBe(200);
    expect(standIn.calls('DELETE', `/v1/subscriptions/${subscription.id}`)).toHaveLength(1);
    expect(standIn.objects.get(subscription.id)?.status).toBe('canceled');
    expect(standIn.objectsOf('payment_intent')).toHaveLength(intents);
    expect(await credits(user.id)).toBe(5);
    expect((await rowsOf(user.id)).map((row) => [row.product_id, row.status, row.source])).toEqual([
      ['pro', 'canceled', 'stripe'],
      ['starter', 'active', 'grant'],
    ]);
  });

  it('a declined card, or one whose bank asks to authenticate: PAYMENT_METHOD_DECLINED (402) and nothing changes, here or on Stripe', async () => {
    const user = await newUser();
    await post(`/payments/products/user/${user.id}`, project.headers.server, { product_id: 'pro' });
    const methodId = await saveCard(user);
    standIn.refuse(methodId, 'card_declined', 'insufficient_funds');
    const subscriptions = standIn.objectsOf('subscription').length;
    const declined = await switchProduct(user, { from_product_id: 'pro', to_product_id: 'max' });
    expectError(declined, 402, 'PAYMENT_METHOD_DECLINED', {
      customer_type: 'user',
      customer_id: user.id,
      requires_action: false,
      decline_code: 'insufficient_funds',
    });
    expect(standIn.objectsOf('subscription')).toHaveLength(subscriptions);
    const oneTime = await switchProduct(user, { from_product_id: 'pro', to_product_id: 'lifetime' });
    expectError(oneTime, 402, 'PAYMENT_METHOD_DECLINED', {
      customer_type: 'user',
      customer_id: user.id,
      requires_action: false,
      decline_code: 'insufficient_funds',
    });
    expect((await owned(user.id)).map((product) => product.id)).toEqual(['pro']);
    expect(await credits(user.id)).toBe(100);

    // A Stripe subscription whose card now needs authentication: the subscription stays on its price.
    const buyer = await newUser();
    const subscription = await buyProSubscription(buyer);
    const buyerMethod = await saveCard(buyer);
    standIn.refuse(buyerMethod, 'authentication_required');
    const needsAction = await switchProduct(buyer, { from_product_id: 'pro', to_product_id: 'max' });
    expectError(needsAction, 402, 'PAYMENT_METHOD_DECLINED', {
      customer_type: 'user',
      customer_id: buyer.id,
      requires_action: true,
      decline_code: 'authentication_required',
    });
    const stripeItem = (standIn.objects.get(subscription.id) as unknown as { items: { data: [Record<string, unknown>] } }).items.data[0];
    expect(stripeItem.price).toMatchObject({ unit_amount: 999 });
    expect((await owned(buyer.id)).map((product) => product.id)).toEqual(['pro']);
    expect((await rowsOf(buyer.id)).map((row) => [row.product_id, row.status])).toEqual([['pro', 'active']]);
  });
});
