import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { StripeStandIn } from '@gatehouse/testing/stripe-stand-in';
import { createTestContext, type TestProject } from '@gatehouse/testing/test-context';
import { newSignedInUser } from '@gatehouse/testing/users-fixture';

/**
 * Stripe purchases (docs/protocol/endpoints.md §22) with the real `stripe` SDK against a local stand-in of Stripe's
 * API: the purchase session creates a payment intent (one-time price) or a customer + subscription
 * (price per interval) on the connected account; Stripe's signed events then grant, renew, mark
 * and cancel the purchase once per event id. Also the customer's invoices and payment methods
 * (setup intent, set default) and the billing read that shows them.
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
      prices: {
        monthly: { USD: '9.99', interval: [1, 'month'] },
        quarterly: { EUR: '25', interval: [3, 'month'], freeTrial: [14, 'day'] },
      },
      includedItems: { credits: { quantity: 100, repeat: [1, 'month'], expires: 'when-repeated' } },
    },
    max: { displayName: 'Max', customerType: 'user', productLineId: 'plans', prices: { monthly: { USD: '29', interval: [1, 'month'] } } },
    pack: {
      displayName: 'Credit pack',
      customerType: 'user',
      stackable: true,
      prices: { once: { USD: '5.5' }, yen: { JPY: '700' } },
      includedItems: { credits: { quantity: 10, expires: 'never' } },
    },
  },
};
const webhookSecret = 'whsec_test_purchases';
const signer = new Stripe('sk_test_signer');
const standIn = new StripeStandIn();
let context: Awaited<ReturnType<typeof createTestContext>>;
let project: TestProject;
let unconnected: TestProject;
let accountId: string;

beforeAll(async () => {
  await standIn.start();
  context = await createTestContext({
    payments: { stripeSecretKey: 'sk_test_platform', stripeWebhookSecret: webhookSecret, stripeApiUrl: standIn.url },
  });
  project = await context.createProject({ payments: catalogue });
  unconnected = await context.createProject({ payments: catalogue });
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
const newUser = (on: TestProject = project) => newSignedInUser(context, on, { display_name: 'Stripe buyer' });
async function codeFor(userId: string, productId: string, on: TestProject = project): Promise<string> {
  const response = await post('/payments/purchases/create-purchase-url', on.headers.server, {
    customer_type: 'user',
    customer_id: userId,
    product_id: productId,
  });
  expect(response.status, response.text).toBe(200);
  return new URL(response.body.url).searchParams.get('code') as string;
}
const session = (fullCode: string, priceId: string, quantity?: number) =>
  post('/payments/purchases/purchase-session', {}, { full_code: fullCode, price_id: priceId, ...(quantity ? { quantity } : {}) });
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
const owned = async (userId: string) => (await get(`/payments/products/user/${userId}`, project.headers.server)).body.items;
const latest = (kind: string) => standIn.objectsOf(kind).at(-1) as Record<string, unknown> & { id: string };

describe('POST /payments/purchases/purchase-session', () => {
  it('a one-time price: a payment intent on the connected account for the customer; the webhook grants it once and uses the code', async () => {
    const user = await newUser();
    const code = await codeFor(user.id, 'pack');
    const details = await post('/payments/purchases/validate-code', {}, { full_code: code });
    expect(details.body).toMatchObject({ test_mode: false, stripe_account_id: accountId, charges_enabled: false });

    const started = await session(code, 'once', 3);
    expect(started.status, started.text).toBe(200);
    const intent = latest('payment_intent');
    expect(started.body.client_secret).toBe(intent.client_secret);
    expect(intent.account).toBe(accountId);
    expect(intent).toMatchObject({ amount: 1650, currency: 'usd', description: 'Credit pack' });
    const customer = latest('customer');
    expect(intent.customer).toBe(customer.id);
    expect(customer).toMatchObject({
      account: accountId,
      metadata: { gatehouse_project_id: project.project.id, gatehouse_customer_type: 'user', gatehouse_customer_id: user.id },
    });
    expect(intent.metadata).toMatchObject({
      customer_type: 'user',
      customer_id: user.id,
      product_id: 'pack',
      price_id: 'once',
      quantity: '3',
    });
    expect(await credits(user.id)).toBe(0);

    // Zero-decimal currency, and the same Stripe customer the second time.
    const yen = await session(await codeFor(user.id, 'pack'), 'yen');
    expect(yen.status, yen.text).toBe(200);
    expect(latest('payment_intent')).toMatchObject({ amount: 700, currency: 'jpy', customer: customer.id });
    expect(
      standIn.objectsOf('customer').filter((other) => (other.metadata as Record<string, string>).gatehouse_customer_id === user.id),
    ).toHaveLength(1);

    const succeeded = { type: 'payment_intent.succeeded', object: { ...intent, status: 'succeeded' } };
    const first = await deliver({ ...succeeded, id: 'evt_pack_once' });
    expect(first.body).toEqual({ received: true, applied: true });
    expect((await deliver({ ...succeeded, id: 'evt_pack_once' })).body).toEqual({ received: true, applied: false });
    expect(await credits(user.id)).toBe(30);
    expect((await get(`/payments/purchases/validate-code?full_code=${encodeURIComponent(code)}`, {})).body).toEqual({ valid: false });
    expectError(await session(code, 'once'), 404, 'VERIFICATION_CODE_NOT_FOUND');
    const transactions = await get(`/internal/payments/transactions?type=purchase&customer_id=${user.id}`, project.headers.admin);
    expect(transactions.body.transactions).toEqual([
      expect.objectContaining({ product_id: 'pack', quantity: 3, amount: '5.5', currency: 'USD', test_mode: false }),
    ]);
  });

  it('a price per interval: a subscription with the price per interval; first invoice grants, renewals repeat the grant, updates and deletion end it', async () => {
    const user = await newUser();
    const started = await session(await codeFor(user.id, 'pro'), 'monthly');
    expect(started.status, started.text).toBe(200);
    const subscription = latest('subscription');
    expect(subscription.account).toBe(accountId);
    expect(started.body.client_secret).toBe(
      (subscription.latest_invoice as { confirmation_secret: { client_secret: string } }).confirmation_secret.client_secret,
    );
    const call = standIn.calls('POST', '/v1/subscriptions').at(-1);
    expect(call?.stripeAccount).toBe(accountId);
    expect(Object.fromEntries(call?.body ?? [])).toMatchObject({
      'items[0][price_data][currency]': 'usd',
      'items[0][price_data][unit_amount]': '999',
      'items[0][price_data][recurring][interval]': 'month',
      'items[0][price_data][recurring][interval_count]': '1',
      'items[0][quantity]': '1',
      payment_behavior: 'default_incomplete',
      'metadata[product_id]': 'pro',
      'metadata[price_id]': 'monthly',
    });
    const product = standIn.objects.get(call?.body.get('items[0][price_data][product]') ?? '');
    expect(product).toMatchObject({ object: 'product', name: 'Pro', account: accountId });

    const day = 86_400;
    const now = Math.floor(Date.now() / 1000);
    const invoice = (end: number) => ({
      id: `in_${randomUUID().replaceAll('-', '')}`,
      object: 'invoice',
      amount_paid: 999,
      currency: 'usd',
      lines: { data: [{ period: { start: end - 30 * day, end } }] },
      parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id, metadata: subscription.metadata } },
    });
    expect((await deliver({ type: 'invoice.paid', object: invoice(now + 30 * day) })).body.applied).toBe(true);
    expect(await credits(user.id)).toBe(100);
    const renewal = { type: 'invoice.paid', object: invoice(now + 60 * day), id: `evt_${randomUUID()}` };
    expect((await deliver(renewal)).body.applied).toBe(true);
    expect((await deliver(renewal)).body.applied).toBe(false);
    const [pro] = await owned(user.id);
    expect(pro.subscription).toMatchObject({
      current_period_end: new Date((now + 60 * day) * 1000).toISOString(),
      cancel_at_period_end: false,
    });

    const updated = {
      type: 'customer.subscription.updated',
      object: {
        id: subscription.id,
        object: 'subscription',
        status: 'active',
        cancel_at_period_end: true,
        items: { data: [{ current_period_end: now + 60 * day }] },
      },
    };
    expect((await deliver(updated)).body.applied).toBe(true);
    expect((await deliver(updated)).body.applied).toBe(false);
    expect((await owned(user.id))[0].subscription.cancel_at_period_end).toBe(true);
    expect(await credits(user.id)).toBe(100);

    const ended = { type: 'customer.subscription.updated', object: { ...updated.object, status: 'canceled' } };
    expect((await deliver(ended)).body.applied).toBe(true);
    expect(await owned(user.id)).toEqual([]);
    expect(await credits(user.id)).toBe(0);
    expect(
      (
        await deliver({
          type: 'customer.subscription.deleted',
          object: { id: subscription.id, object: 'subscription', status: 'canceled' },
        })
      ).body.applied,
    ).toBe(false);
  });

  it('a free trial subscribes with trial_end and answers the pending setup intent; the catalogue currency and interval count go to Stripe', async () => {
    const user = await newUser();
    const before = Date.now();
    const started = await session(await codeFor(user.id, 'pro'), 'quarterly');
    expect(started.status, started.text).toBe(200);
    const subscription = latest('subscription');
    expect(started.body.client_secret).toBe((subscription.pending_setup_intent as { client_secret: string }).client_secret);
    const call = standIn.calls('POST', '/v1/subscriptions').at(-1);
    expect(call?.body.get('items[0][price_data][currency]')).toBe('eur');
    expect(call?.body.get('items[0][price_data][unit_amount]')).toBe('2500');
    expect(call?.body.get('items[0][price_data][recurring][interval_count]')).toBe('3');
    const trialEnd = Number(call?.body.get('trial_end')) * 1000;
    expect(trialEnd).toBeGreaterThanOrEqual(before + 14 * 86_400_000 - 1000);
    expect(trialEnd).toBeLessThanOrEqual(Date.now() + 14 * 86_400_000);
    // One Stripe product per catalogue product.
    expect(call?.body.get('items[0][price_data][product]')).toBe(
      standIn.calls('POST', '/v1/subscriptions').at(0)?.body.get('items[0][price_data][product]'),
    );
    expect(standIn.objectsOf('product')).toHaveLength(1);
  });

  it('applies a burst of 12 purchase events at once, each exactly once', async () => {
    const buyers = await Promise.all(Array.from({ length: 12 }, () => newUser()));
    const events = [];
    for (const buyer of buyers) {
      expect((await session(await codeFor(buyer.id, 'pack'), 'once')).status).toBe(200);
      events.push({ type: 'payment_intent.succeeded', object: { ...latest('payment_intent'), status: 'succeeded' } });
    }
    const answers = await Promise.all(events.map((event) => deliver(event)));
    expect(answers.map((answer) => answer.body)).toEqual(events.map(() => ({ received: true, applied: true })));
    expect(await Promise.all(buyers.map((buyer) => credits(buyer.id)))).toEqual(buyers.map(() => 10));
  }, 60_000);

  it('refuses what the rules refuse, before asking Stripe', async () => {
    const user = await newUser();
    const calls = standIn.requests.length;
    expectError(await session(`${project.project.id}_${'A'.repeat(45)}`, 'once'), 404, 'VERIFICATION_CODE_NOT_FOUND');
    const code = await codeFor(user.id, 'pro');
    expectPlain(await session(code, 'nothing'), 400);
    expectPlain(await session(code, 'monthly', 2), 400);
    const other = await newUser();
    const grant = await post(`/payments/products/user/${other.id}`, project.headers.server, { product_id: 'max' });
    expect(grant.status, grant.text).toBe(200);
    const conflict = await session(await codeFor(other.id, 'pro'), 'monthly');
    expectError(conflict, 409, 'PRODUCT_LINE_CONFLICT');
    expect(conflict.body.details.conflicting_products).toEqual([{ product_id: 'max', display_name: 'Max' }]);
    const maxCode = await codeFor(user.id, 'max');
    await post(`/payments/products/user/${user.id}`, project.headers.server, { product_id: 'max' });
    expectError(await session(maxCode, 'monthly'), 400, 'PRODUCT_ALREADY_GRANTED');
    expect(standIn.requests.length).toBe(calls);

    const stranger = await newUser(unconnected);
    expectError(await session(await codeFor(stranger.id, 'pack', unconnected), 'once'), 404, 'STRIPE_ACCOUNT_INFO_NOT_FOUND');

    const blocked = await context.createProject({ payments: { ...catalogue, blockNewPurchases: false } });
    const buyer = await newUser(blocked);
    const blockedCode = await codeFor(buyer.id, 'pack', blocked);
    await context.services.projects.update(blocked.project.id, { configOverride: { payments: { ...catalogue, blockNewPurchases: true } } });
    expectError(await session(blockedCode, 'once'), 403, 'NEW_PURCHASES_BLOCKED');

    const testMode = await context.createProject({ payments: { ...catalogue, testMode: true } });
    const tester = await newUser(testMode);
    expectError(await session(await codeFor(tester.id, 'pack', testMode), 'once'), 400, 'PURCHASE_NOT_ALLOWED', {
      reason: 'test_mode_project',
    });
  });
});

describe('payment methods, billing and invoices', () => {
  it('a setup intent for the customer, then set-default makes its card the default that billing shows', async () => {
    const user = await newUser();
    const base = `/payments/billing/user/${user.id}`;
    expect((await get(base, user.client)).body).toEqual({ has_customer: false, default_payment_method: null });
    const setup = await post(`/payments/payment-method/user/${user.id}/setup-intent`, user.client, {});
    expect(setup.status, setup.text).toBe(200);
    const intent = latest('setup_intent');
    expect(setup.body).toEqual({ client_secret: intent.client_secret, stripe_account_id: accountId });
    expect(intent).toMatchObject({ usage: 'off_session', account: accountId });
    expect((await get(base, user.client)).body).toEqual({ has_customer: true, default_payment_method: null });

    // Not confirmed yet, or unknown: refused, nothing stored.
    expectPlain(await post(`/payments/payment-method/user/${user.id}/set-default`, user.client, { setup_intent_id: intent.id }), 400);
    expectPlain(await post(`/payments/payment-method/user/${user.id}/set-default`, user.client, { setup_intent_id: 'seti_unknown' }), 400);
    const methodId = standIn.succeedSetupIntent(intent.id, { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 });
    // Another customer cannot take it.
    const other = await newUser();
    await post(`/payments/payment-method/user/${other.id}/setup-intent`, other.client, {});
    expectPlain(await post(`/payments/payment-method/user/${other.id}/set-default`, other.client, { setup_intent_id: intent.id }), 400);

    const set = await post(`/payments/payment-method/user/${user.id}/set-default`, user.client, { setup_intent_id: intent.id });
    expect(set.status, set.text).toBe(200);
    const card = { id: methodId, brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 };
    expect(set.body).toEqual({ success: true, default_payment_method: card });
    expect(standIn.objects.get(intent.customer as string)?.invoice_settings).toEqual({ default_payment_method: methodId });
    expect((await get(base, user.client)).body).toEqual({ has_customer: true, default_payment_method: card });
    expect((await get(`/payments/billing/user/${other.id}`, project.headers.server)).body.default_payment_method).toBeNull();
  });

  it('refuses a customer that does not exist, another user, and a project without a connected account', async () => {
    const user = await newUser();
    expectError(
      await post(`/payments/payment-method/user/${randomUUID()}/setup-intent`, project.headers.server, {}),
      400,
      'CUSTOMER_DOES_NOT_EXIST',
    );
    const other = await newUser();
    expectPlain(await post(`/payments/payment-method/user/${other.id}/setup-intent`, user.client, {}), 403);
    const stranger = await newUser(unconnected);
    expectError(
      await post(`/payments/payment-method/user/${stranger.id}/setup-intent`, stranger.client, {}),
      404,
      'STRIPE_ACCOUNT_INFO_NOT_FOUND',
    );
    expectError(
      await post(`/payments/payment-method/user/${stranger.id}/set-default`, stranger.client, { setup_intent_id: 'seti_1' }),
      404,
      'STRIPE_ACCOUNT_INFO_NOT_FOUND',
    );
    expect((await get(`/payments/billing/user/${stranger.id}`, stranger.client)).body).toEqual({
      has_customer: false,
      default_payment_method: null,
    });
    // Client access without a signed-in user.
    const anonymous = project.headers.client;
    expectError(await get(`/payments/invoices/user/${user.id}`, anonymous), 401, 'USER_AUTHENTICATION_REQUIRED');
    expectError(await post(`/payments/payment-method/user/${user.id}/setup-intent`, anonymous, {}), 401, 'USER_AUTHENTICATION_REQUIRED');
    expectError(
      await post(`/payments/payment-method/user/${user.id}/set-default`, anonymous, { setup_intent_id: 'seti_1' }),
      401,
      'USER_AUTHENTICATION_REQUIRED',
    );
  });

  it('lists the invoices Stripe holds for the customer, newest first, a page at a time; empty without a Stripe customer', async () => {
    const user = await newUser();
    const base = `/payments/invoices/user/${user.id}`;
    const empty = await get(base, user.client);
    expect(empty.status, empty.text).toBe(200);
    expect(empty.body).toEqual({ items: [], is_paginated: true, pagination: { next_cursor: null } });
    const stranger = await newUser(unconnected);
    expect((await get(`/payments/invoices/user/${stranger.id}`, stranger.client)).body.items).toEqual([]);

    await post(`/payments/payment-method/user/${user.id}/setup-intent`, user.client, {});
    const customerId = latest('setup_intent').customer as string;
    for (const [index, status] of ['paid', 'paid', 'open'].entries()) {
      standIn.addInvoice(accountId, customerId, { total: 999 + index, status, created: 1_700_000_000 + index });
    }
    const first = await get(`${base}?limit=2`, user.client);
    expect(first.status, first.text).toBe(200);
    expect(first.body.items.map((invoice: { amount_total: number }) => invoice.amount_total)).toEqual([1001, 1000]);
    expect(first.body.items[0]).toEqual({
      created_at_millis: 1_700_000_002_000,
      status: 'open',
      amount_total: 1001,
      hosted_invoice_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/invoices\//),
    });
    expect(first.body.pagination.next_cursor).toMatch(/^in_/);
    const second = await get(`${base}?limit=2&cursor=${first.body.pagination.next_cursor}`, user.client);
    expect(second.body.items.map((invoice: { amount_total: number }) => invoice.amount_total)).toEqual([999]);
    expect(second.body.pagination.next_cursor).toBeNull();
    expect(standIn.calls('GET', '/v1/invoices').at(-1)?.stripeAccount).toBe(accountId);
    const other = await newUser();
    expectPlain(await get(base, other.client), 403);
  });
});
