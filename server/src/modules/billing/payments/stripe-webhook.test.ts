import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import {
  accountId,
  applicationName,
  context,
  credits,
  deliver,
  newUser,
  offContext,
  paymentIntent,
  products,
  project,
  signer,
  standIn,
  stripeEvent,
  useStripeMode,
  webhookSecret,
} from '@gatehouse/testing/stripe-mode';

/**
 * The Connect webhook of Stripe mode (docs/protocol/endpoints.md §25), signed with the real `stripe` SDK:
 * it applies purchases, renewals, cancellations and refunds once per event id, and refuses deliveries
 * whose signature is missing, forged or stale. The connected account itself: stripe-account.test.ts.
 */
useStripeMode();

describe('POST /integrations/stripe/webhooks', () => {
  it('applies a one-time purchase once: a replayed event changes nothing', async () => {
    const user = await newUser();
    const payload = stripeEvent({ type: 'payment_intent.succeeded', object: paymentIntent(user.id, 'pack', 'once') });
    const first = await deliver(payload);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ received: true, applied: true });
    expect(await credits(user.id)).toBe(10);
    const replay = await deliver(payload);
    expect(replay.body).toEqual({ received: true, applied: false });
    const racing = await Promise.all([deliver(payload), deliver(payload)]);
    expect(racing.map((answer) => answer.body.applied)).toEqual([false, false]);
    expect(await credits(user.id)).toBe(10);
    const listed = await context.request({
      url: `/api/v1/internal/payments/transactions?customer_id=${user.id}`,
      headers: project.headers.admin,
    });
    expect(listed.body.transactions).toEqual([
      expect.objectContaining({ type: 'purchase', test_mode: false, product_id: 'pack', amount: '5', currency: 'USD', status: 'active' }),
    ]);
  });

  it('refuses a missing, forged or stale signature (STRIPE_WEBHOOK_SIGNATURE_INVALID) and applies nothing', async () => {
    const user = await newUser();
    const payload = stripeEvent({ type: 'payment_intent.succeeded', object: paymentIntent(user.id, 'pack', 'once') });
    expectError(await deliver(payload, null), 400, 'STRIPE_WEBHOOK_SIGNATURE_INVALID');
    expectError(
      await deliver(payload, signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_forged' })),
      400,
      'STRIPE_WEBHOOK_SIGNATURE_INVALID',
    );
    const stale = signer.webhooks.generateTestHeaderString({
      payload,
      secret: webhookSecret,
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    expectError(await deliver(payload, stale), 400, 'STRIPE_WEBHOOK_SIGNATURE_INVALID');
    const signed = signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    expectError(await deliver(payload.replace('"pack"', '"pro"'), signed), 400, 'STRIPE_WEBHOOK_SIGNATURE_INVALID');
    expect(await credits(user.id)).toBe(0);
    expectError(
      await offContext.request({
        method: 'POST',
        url: '/api/v1/integrations/stripe/webhooks',
        headers: { 'content-type': 'application/json', 'stripe-signature': signed },
        payload,
      }),
      400,
      'STRIPE_WEBHOOK_SIGNATURE_INVALID',
    );
  });

  it('grants a subscription on its first paid invoice, renews it on the next, cancels it when deleted', async () => {
    const user = await newUser();
    const subscriptionId = `sub_${randomUUID().replaceAll('-', '')}`;
    const periodEnd = (days: number) => Math.floor(Date.now() / 1000) + days * 86_400;
    const invoice = (end: number, reason: string) => ({
      id: `in_${randomUUID().replaceAll('-', '')}`,
      object: 'invoice',
      billing_reason: reason,
      subscription: subscriptionId,
      payment_intent: `pi_${randomUUID().replaceAll('-', '')}`,
      amount_paid: 999,
      currency: 'usd',
      lines: { data: [{ period: { start: end - 30 * 86_400, end } }] },
      subscription_details: { metadata: { customer_type: 'user', customer_id: user.id, product_id: 'pro', price_id: 'monthly' } },
    });
    const firstEnd = periodEnd(30);
    expect((await deliver(stripeEvent({ type: 'invoice.paid', object: invoice(firstEnd, 'subscription_create') }))).body.applied).toBe(
      true,
    );
    expect(await credits(user.id)).toBe(100);
    const [owned] = await products(user.id);
    expect(owned).toMatchObject({ id: 'pro', type: 'subscription' });
    expect(owned.subscription.current_period_end).toBe(new Date(firstEnd * 1000).toISOString());

    const secondEnd = periodEnd(60);
    const renewal = stripeEvent({ type: 'invoice.paid', object: invoice(secondEnd, 'subscription_cycle') });
    expect((await deliver(renewal)).body.applied).toBe(true);
    expect((await products(user.id))[0].subscription.current_period_end).toBe(new Date(secondEnd * 1000).toISOString());
    expect((await deliver(renewal)).body.applied).toBe(false);
    expect(await products(user.id)).toHaveLength(1);

    const deleted = stripeEvent({
      type: 'customer.subscription.deleted',
      object: { id: subscriptionId, object: 'subscription', status: 'canceled' },
    });
    expect((await deliver(deleted)).body.applied).toBe(true);
    expect(await products(user.id)).toEqual([]);
    expect(await credits(user.id)).toBe(0);
    expect((await deliver(deleted)).body.applied).toBe(false);
  });

  it('applies a refund once, whether it starts on Stripe or at the admin refund endpoint', async () => {
    const user = await newUser();
    const intent = paymentIntent(user.id, 'pack', 'once');
    expect((await deliver(stripeEvent({ type: 'payment_intent.succeeded', object: intent }))).body.applied).toBe(true);
    const refunded = stripeEvent({
      type: 'charge.refunded',
      object: {
        id: 'ch_1',
        object: 'charge',
        payment_intent: intent.id,
        amount_refunded: 500,
        currency: 'usd',
        refunds: { data: [{ id: 're_1' }] },
      },
    });
    expect((await deliver(refunded)).body.applied).toBe(true);
    expect(await credits(user.id)).toBe(0);
    expect((await deliver(refunded)).body.applied).toBe(false);
    const refunds = await context.request({
      url: `/api/v1/internal/payments/transactions?type=refund&customer_id=${user.id}`,
      headers: project.headers.admin,
    });
    expect(refunds.body.transactions).toEqual([expect.objectContaining({ amount: '5', currency: 'USD', test_mode: false })]);

    // Refunded from the dashboard: Stripe is asked on the connected account, and Stripe's own event then changes nothing.
    const other = await newUser();
    const bought = paymentIntent(other.id, 'pack', 'once');
    await deliver(stripeEvent({ type: 'payment_intent.succeeded', object: bought }));
    const list = await context.request({
      url: `/api/v1/internal/payments/transactions?type=purchase&customer_id=${other.id}`,
      headers: project.headers.admin,
    });
    const purchaseId = list.body.transactions[0].id;
    expectError(
      await context.request({
        method: 'POST',
        url: '/api/v1/internal/payments/transactions/refund',
        headers: project.headers.admin,
        payload: { type: 'one-time-purchase', id: purchaseId, amount_usd: '6' },
      }),
      400,
      'REFUND_NOT_POSSIBLE',
      { reason: 'amount_above_paid' },
    );
    const response = await context.request({
      method: 'POST',
      url: '/api/v1/internal/payments/transactions/refund',
      headers: project.headers.admin,
      payload: { type: 'one-time-purchase', id: purchaseId, amount_usd: '2.5' },
    });
    expect(response.status, response.text).toBe(200);
    const call = standIn.calls('POST', '/v1/refunds').at(-1);
    expect(call?.stripeAccount).toBe(accountId);
    expect(call?.body.get('payment_intent')).toBe(bought.id);
    expect(call?.body.get('amount')).toBe('250');
    expect(await credits(other.id)).toBe(0);
    const echo = stripeEvent({
      type: 'charge.refunded',
      object: { id: 'ch_2', object: 'charge', payment_intent: bought.id, amount_refunded: 250, currency: 'usd' },
    });
    expect((await deliver(echo)).body.applied).toBe(false);
  });

  it('refunds on a slow Stripe without a transaction waiting on it: no session idle in transaction, the customer not locked, the money returned once', async () => {
    const user = await newUser();
    const purchaseOf = async (intent: ReturnType<typeof paymentIntent>) => {
      expect((await deliver(stripeEvent({ type: 'payment_intent.succeeded', object: intent }))).body.applied).toBe(true);
      const list = await context.request({
        url: `/api/v1/internal/payments/transactions?type=purchase&customer_id=${user.id}`,
        headers: project.headers.admin,
      });
      const fresh = (list.body.transactions as Array<{ id: string }>).filter((transaction) => !seen.has(transaction.id));
      expect(fresh).toHaveLength(1);
      seen.add(fresh[0]?.id as string);
      return fresh[0]?.id as string;
    };
    const seen = new Set<string>();
    const first = await purchaseOf(paymentIntent(user.id, 'pack', 'once'));
    const refund = (id: string) =>
      context.request({
        method: 'POST',
        url: '/api/v1/internal/payments/transactions/refund',
        headers: project.headers.admin,
        payload: { type: 'one-time-purchase', id, amount_usd: '5' },
      });
    const watcher = new pg.Client({ connectionString: inject('databaseUrl') });
    await watcher.connect();
    let idlest = 0;
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const { rows } = await watcher.query<{ idle_ms: number | null }>(
          `select max(extract(epoch from now() - state_change) * 1000) as idle_ms from pg_stat_activity
            where application_name = $1 and state like 'idle in transaction%'`,
          [applicationName],
        );
        idlest = Math.max(idlest, Number(rows[0]?.idle_ms ?? 0));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    standIn.delays.set('/v1/refunds', 1_500);
    try {
      const calls = standIn.calls('POST', '/v1/refunds').length;
      const slow = refund(first);
      await expect.poll(() => standIn.calls('POST', '/v1/refunds').length, { interval: 20 }).toBe(calls + 1);
      // While Stripe takes its time, the customer's other changes (a purchase: the customer's lock) go on.
      const started = Date.now();
      const second = await purchaseOf(paymentIntent(user.id, 'pack', 'once'));
      expect(Date.now() - started).toBeLessThan(1_000);
      const answered = await slow;
      expect(answered.status, answered.text).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
      expect(standIn.calls('POST', '/v1/refunds').at(-1)?.idempotencyKey).toBe(`gatehouse-refund-${first}`);

      // Two refunds of one purchase at once: Stripe is asked twice with one idempotency key (so it returns the
      // money once), one is recorded, the other is ONE_TIME_PURCHASE_ALREADY_REFUNDED (the spec: also when both race).
      const both = await Promise.all([refund(second), refund(second)]);
      expect(both.map((response) => response.status).sort()).toEqual([200, 400]);
      expectError(both.find((response) => response.status === 400) as (typeof both)[number], 400, 'ONE_TIME_PURCHASE_ALREADY_REFUNDED');
      expect(
        new Set(
          standIn
            .calls('POST', '/v1/refunds')
            .slice(-2)
            .map((call) => call.idempotencyKey),
        ),
      ).toEqual(new Set([`gatehouse-refund-${second}`]));
      const refunds = await context.request({
        url: `/api/v1/internal/payments/transactions?type=refund&customer_id=${user.id}`,
        headers: project.headers.admin,
      });
      expect(refunds.body.transactions).toHaveLength(2);
      // Refunded before: refused at once, Stripe not asked again.
      const calls2 = standIn.calls('POST', '/v1/refunds').length;
      expectError(await refund(first), 400, 'ONE_TIME_PURCHASE_ALREADY_REFUNDED');
      expect(standIn.calls('POST', '/v1/refunds')).toHaveLength(calls2);
    } finally {
      standIn.delays.delete('/v1/refunds');
      watching = false;
      await watch;
      await watcher.end();
    }
    // Before: the refund's transaction sat idle (holding the customer's lock) for as long as Stripe took.
    expect(idlest).toBeLessThan(300);
  });

  it('acknowledges events of accounts no project owns and types it does not apply', async () => {
    const user = await newUser();
    const stranger = stripeEvent({
      type: 'payment_intent.succeeded',
      object: paymentIntent(user.id, 'pack', 'once'),
      account: 'acct_unknown',
    });
    expect((await deliver(stranger)).body).toEqual({ received: true, applied: false });
    expect((await deliver(stripeEvent({ type: 'customer.created', object: { id: 'cus_1' } }))).body).toEqual({
      received: true,
      applied: false,
    });
    const unknownProduct = stripeEvent({ type: 'payment_intent.succeeded', object: paymentIntent(user.id, 'nothing', 'once') });
    expect((await deliver(unknownProduct)).body).toEqual({ received: true, applied: false });
    expect(await credits(user.id)).toBe(0);
  });
});
