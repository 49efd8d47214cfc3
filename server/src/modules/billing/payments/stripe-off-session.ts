import type Stripe from 'stripe';
import type { StripeSdk } from './stripe-sdk.ts';

/** What an off-session charge came to: paid, or refused by the card (declined, or needing the customer to authenticate). */
export type ChargeOutcome<T> = { ok: true; value: T } | { ok: false; requiresAction: boolean; declineCode: string | null };

/** A subscription price charged off-session to a saved payment method. */
export type OffSessionSubscription = {
  customerId: string;
  paymentMethodId: string;
  productId: string;
  currency: string;
  unitAmountMinor: number;
  interval: 'day' | 'week' | 'month' | 'year';
  intervalCount: number;
  quantity: number;
  metadata: Record<string, string>;
};
export type PaidSubscription = { id: string; currentPeriodEnd: Date | null };

/** A one-time payment charged off-session to a saved payment method. */
export type OffSessionPayment = {
  amountMinor: number;
  currency: string;
  customerId: string;
  paymentMethodId: string;
  description: string;
  metadata: Record<string, string>;
};

/**
 * Runs an off-session charge: a card Stripe refuses (declined, or its bank asks the customer to
 * authenticate, which nobody can do off-session) is an answer, not an exception.
 */
async function charging<T>({ stripe, errors }: StripeSdk, run: (stripe: Stripe) => Promise<T>): Promise<ChargeOutcome<T>> {
  try {
    return { ok: true, value: await run(stripe) };
  } catch (error) {
    if (!(error instanceof errors.StripeCardError)) throw error;
    const code = error.code ?? null;
    return {
      ok: false,
      requiresAction:
        error.payment_intent?.status === 'requires_action' ||
        code === 'authentication_required' ||
        code === 'subscription_payment_intent_requires_action',
      declineCode: error.decline_code || code,
    };
  }
}

/**
 * A subscription on the connected account paid at once with the customer's saved payment method,
 * off-session (`error_if_incomplete`: Stripe creates nothing when the first invoice cannot be paid).
 */
export function createPaidSubscription(
  sdk: StripeSdk,
  accountId: string,
  input: OffSessionSubscription,
): Promise<ChargeOutcome<PaidSubscription>> {
  return charging(sdk, async (stripe) => {
    const subscription = await stripe.subscriptions.create(
      {
        customer: input.customerId,
        default_payment_method: input.paymentMethodId,
        off_session: true,
        payment_behavior: 'error_if_incomplete',
        items: [{ price_data: priceDataOf(input), quantity: input.quantity }],
        metadata: input.metadata,
      },
      { stripeAccount: accountId },
    );
    return paidSubscriptionOf(subscription);
  });
}

/**
 * Moves a subscription's item to a new price, invoicing the prorations at once and paying them
 * with the customer's saved payment method off-session (`error_if_incomplete`: Stripe leaves the
 * subscription as it was when that payment fails).
 */
export function switchSubscription(
  sdk: StripeSdk,
  accountId: string,
  subscriptionId: string,
  input: OffSessionSubscription & { itemId: string },
): Promise<ChargeOutcome<PaidSubscription>> {
  return charging(sdk, async (stripe) => {
    const subscription = await stripe.subscriptions.update(
      subscriptionId,
      {
        default_payment_method: input.paymentMethodId,
        off_session: true,
        payment_behavior: 'error_if_incomplete',
        proration_behavior: 'always_invoice',
        cancel_at_period_end: false,
        items: [{ id: input.itemId, price_data: priceDataOf(input), quantity: input.quantity }],
        metadata: input.metadata,
      },
      { stripeAccount: accountId },
    );
    return paidSubscriptionOf(subscription);
  });
}

/** A one-time payment charged at once to the customer's saved payment method, off-session; answers the payment intent's id. */
export function chargeOffSession(sdk: StripeSdk, accountId: string, input: OffSessionPayment): Promise<ChargeOutcome<{ id: string }>> {
  return charging(sdk, async (stripe) => {
    const intent = await stripe.paymentIntents.create(
      {
        amount: input.amountMinor,
        currency: input.currency.toLowerCase(),
        customer: input.customerId,
        payment_method: input.paymentMethodId,
        off_session: true,
        confirm: true,
        description: input.description,
        metadata: input.metadata,
      },
      { stripeAccount: accountId },
    );
    if (intent.status !== 'succeeded') throw new Error(`Stripe answered payment intent ${intent.id} as ${intent.status}`);
    return { id: intent.id };
  });
}

function priceDataOf(input: OffSessionSubscription) {
  return {
    currency: input.currency.toLowerCase(),
    product: input.productId,
    unit_amount: input.unitAmountMinor,
    recurring: { interval: input.interval, interval_count: input.intervalCount },
  };
}

function paidSubscriptionOf(subscription: Stripe.Subscription): PaidSubscription {
  const periodEnd = subscription.items.data[0]?.current_period_end;
  return { id: subscription.id, currentPeriodEnd: typeof periodEnd === 'number' && periodEnd > 0 ? new Date(periodEnd * 1000) : null };
}
