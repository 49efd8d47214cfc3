import { describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { StripeStandIn } from '@gatehouse/testing/stripe-stand-in';
import { createTestContext, withTestContext } from '@gatehouse/testing/test-context';
import { ApiHttpError } from '../api-client.ts';
import { OneTimePurchaseAlreadyRefundedError, OneTimePurchaseNotFoundError, StripeAccountInfoNotFoundError } from '../errors.ts';
import { createAdminApp } from './admin-app.ts';

/**
 * The admin app's payments against the real server over HTTP: the catalogue in the config (items,
 * product lines, products: list, set, remove; the seed's validation messages as plain 400s), test
 * mode, then purchases listed as transactions (keyset cursor, filters) and refunded once, with the
 * catalogued errors as their classes.
 */
const env = withTestContext({ listen: true });
const adminApp = () =>
  createAdminApp({ baseUrl: env.baseUrl, projectId: env.project.project.id, superSecretAdminKey: env.project.keys.super_secret_admin_key });

async function buyInTestMode(userId: string, productId: string, priceId: string): Promise<void> {
  const url = await adminApp().payments.createCheckoutUrl({ type: 'user', id: userId }, productId);
  const code = new URL(url).searchParams.get('code');
  const paid = await fetch(`${env.baseUrl}/api/v1/internal/payments/test-mode-purchase-session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ full_code: code, price_id: priceId }),
  });
  expect(paid.status, await paid.clone().text()).toBe(200);
}

describe('admin payments SDK', () => {
  it('sets, lists and removes items, product lines and products in the config; refuses a broken catalogue', async () => {
    const { payments } = adminApp();
    expect(await payments.items.list()).toEqual({});
    await payments.items.set('credits', { displayName: 'Credits', customerType: 'user' });
    await payments.items.set('seats', { customerType: 'team' });
    await payments.productLines.set('plans', { displayName: 'Plans', customerType: 'user' });
    await payments.products.set('pro', {
      displayName: 'Pro',
      customerType: 'user',
      productLineId: 'plans',
      prices: { monthly: { USD: '9.99', interval: [1, 'month'] } },
      includedItems: { credits: { quantity: 100 } },
    });
    await payments.products.set('pack', {
      displayName: 'Credit pack',
      customerType: 'user',
      stackable: true,
      prices: { once: { USD: '5' } },
      includedItems: { credits: { quantity: 10, expires: 'never' } },
    });
    expect(Object.keys(await payments.items.list()).sort()).toEqual(['credits', 'seats']);
    expect(await payments.productLines.list()).toEqual({ plans: { displayName: 'Plans', customerType: 'user' } });
    expect((await payments.products.list()).pro).toMatchObject({ displayName: 'Pro', prices: { monthly: { USD: '9.99' } } });

    const broken = payments.products.set('cheap', { customerType: 'user', prices: { once: { USD: '0.001' } } });
    await expect(broken).rejects.toBeInstanceOf(ApiHttpError);
    await expect(broken).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('Too many decimals; USD only has 2 decimals'),
    });
    expect(Object.keys(await payments.products.list()).sort()).toEqual(['pack', 'pro']);
    // Still needed by a product: refused, nothing removed.
    await expect(payments.items.remove('credits')).rejects.toMatchObject({ status: 400 });
    expect(Object.keys(await payments.items.list())).toContain('credits');

    await payments.items.remove('seats');
    expect(Object.keys(await payments.items.list())).toEqual(['credits']);
    await payments.products.set('legacy', { customerType: 'user', prices: { once: { USD: '1' } } });
    await payments.products.remove('legacy');
    expect(Object.keys(await payments.products.list()).sort()).toEqual(['pack', 'pro']);

    await payments.setSettings({ blockNewPurchases: true });
    const config = await adminApp().config.get();
    expect(config.payments).toMatchObject({ blockNewPurchases: true, testMode: true });
    await payments.setSettings({ blockNewPurchases: false });
  });

  it('lists transactions a page at a time with filters, and refunds a purchase once', async () => {
    const { payments } = adminApp();
    const user = await env.context.services.users.create(env.project.project, { display_name: 'Buyer' }, 'server');
    await buyInTestMode(user.id, 'pack', 'once');
    await buyInTestMode(user.id, 'pack', 'once');
    await payments.increaseQuantity({ type: 'user', id: user.id }, 'credits', 5);

    const all = await payments.listTransactions({ customerId: user.id });
    expect(all.transactions.map((transaction) => transaction.type)).toEqual(['manual-item-quantity-change', 'purchase', 'purchase']);
    const first = await payments.listTransactions({ customerId: user.id, limit: 2 });
    expect(first.transactions).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    const second = await payments.listTransactions({ customerId: user.id, limit: 2, cursor: first.nextCursor as string });
    expect([...first.transactions, ...second.transactions].map((transaction) => transaction.id)).toEqual(
      all.transactions.map((transaction) => transaction.id),
    );
    expect(second.nextCursor).toBeNull();
    const purchases = await payments.listTransactions({ customerId: user.id, type: 'purchase', customerType: 'user' });
    expect(purchases.transactions).toHaveLength(2);
    expect((await payments.listTransactions({ customerId: user.id, customerType: 'team' })).transactions).toEqual([]);

    expect((await payments.getItem({ type: 'user', id: user.id }, 'credits')).quantity).toBe(25);
    const purchaseId = purchases.transactions[0]?.id as string;
    const { refundTransactionId } = await payments.refundTransaction({ type: 'one-time-purchase', id: purchaseId, amountUsd: '0' });
    expect(refundTransactionId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await payments.getItem({ type: 'user', id: user.id }, 'credits')).quantity).toBe(15);
    const refunds = await payments.listTransactions({ customerId: user.id, type: 'refund' });
    expect(refunds.transactions.map((transaction) => transaction.id)).toEqual([refundTransactionId]);

    await expect(payments.refundTransaction({ type: 'one-time-purchase', id: purchaseId, amountUsd: '0' })).rejects.toBeInstanceOf(
      OneTimePurchaseAlreadyRefundedError,
    );
    await expect(
      payments.refundTransaction({ type: 'one-time-purchase', id: '00000000-0000-4000-8000-000000000000', amountUsd: '0' }),
    ).rejects.toBeInstanceOf(OneTimePurchaseNotFoundError);
  });

  it("reads and changes the Stripe account's payment methods; without a connected account it is StripeAccountInfoNotFoundError", async () => {
    await expect(adminApp().payments.getMethodConfigs()).rejects.toBeInstanceOf(StripeAccountInfoNotFoundError);
    const standIn = await new StripeStandIn().start();
    const context = await createTestContext({
      payments: { stripeSecretKey: 'sk_test_platform', stripeWebhookSecret: 'whsec_sdk', stripeApiUrl: standIn.url },
    });
    try {
      await context.app.listen({ port: 0, host: '127.0.0.1' });
      const project = await context.createProject({ payments: { testMode: false } });
      const setup = await context.request({
        method: 'POST',
        url: '/api/v1/internal/payments/setup',
        headers: project.headers.admin,
        payload: {},
      });
      expect(setup.status, setup.text).toBe(200);
      const { payments } = createAdminApp({
        baseUrl: `http://127.0.0.1:${(context.app.server.address() as AddressInfo).port}`,
        projectId: project.project.id,
        superSecretAdminKey: project.keys.super_secret_admin_key,
      });
      const configs = await payments.getMethodConfigs();
      expect(configs.methods.find((method) => method.id === 'card')).toEqual({
        id: 'card',
        name: 'Card',
        enabled: true,
        available: true,
        overridable: null,
      });
      await payments.updateMethodConfigs(configs.config_id, { card: 'off' });
      expect((await payments.getMethodConfigs()).methods.find((method) => method.id === 'card')?.enabled).toBe(false);
    } finally {
      await context.close();
      await standIn.close();
    }
  });
});
