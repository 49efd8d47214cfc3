import type Stripe from 'stripe';
import { methodConfigOf, updateMethodConfigOf } from './stripe-method-config.ts';
import {
  type ChargeOutcome,
  chargeOffSession,
  createPaidSubscription,
  type OffSessionPayment,
  type OffSessionSubscription,
  type PaidSubscription,
  switchSubscription,
} from './stripe-off-session.ts';
import type { PaymentSettings } from './payment-settings.ts';
import { isNotFound, type StripeSdk } from './stripe-sdk.ts';

/** Signature tolerance of the webhook: Stripe's default, 5 minutes. */
const webhookToleranceSeconds = 300;

/**
 * The platform's Stripe account through the `stripe` SDK: connected accounts of projects (Connect,
 * Express), their onboarding links and embedded-component sessions, refunds on a connected account,
 * and the webhook signature check. The SDK loads at the first call (issue #20: idle memory).
 */
export class StripeGateway {
  private client: Promise<StripeSdk> | undefined;

  constructor(
    private readonly secretKey: string,
    private readonly webhookSecret: string | null,
    private readonly apiUrl: string | null,
  ) {}

  private sdk(): Promise<StripeSdk> {
    this.client ??= import('stripe').then(({ default: StripeSdk }) => ({ stripe: this.create(StripeSdk), errors: StripeSdk.errors }));
    return this.client;
  }

  private create(StripeSdk: typeof Stripe): Stripe {
    const url = this.apiUrl ? new URL(this.apiUrl) : undefined;
    return new StripeSdk(this.secretKey, {
      maxNetworkRetries: 1,
      timeout: 20_000,
      telemetry: false,
      ...(url
        ? {
            host: url.hostname,
            port: url.port || (url.protocol === 'https:' ? 443 : 80),
            protocol: url.protocol === 'https:' ? 'https' : 'http',
          }
        : {}),
    });
  }

  static from(settings: PaymentSettings): StripeGateway | null {
    return settings.stripeSecretKey
      ? new StripeGateway(settings.stripeSecretKey, settings.stripeWebhookSecret, settings.stripeApiUrl)
      : null;
  }

  async createAccount(projectId: string): Promise<string> {
    const account = await (await this.sdk()).stripe.accounts.create({
      type: 'express',
      metadata: { gatehouse_project_id: projectId },
    });
    return account.id;
  }

  async onboardingLink(accountId: string, returnUrl: string): Promise<string> {
    const link = await (await this.sdk()).stripe.accountLinks.create({
      account: accountId,
      type: 'account_onboarding',
      refresh_url: returnUrl,
      return_url: returnUrl,
    });
    return link.url;
  }

  /** The connected account, or null when Stripe knows no such account. */
  async findAccount(accountId: string) {
    const { errors } = await this.sdk();
    try {
      return await this.account(accountId);
    } catch (error) {
      if (isNotFound(errors, error)) return null;
      throw error;
    }
  }

  async account(accountId: string) {
    const account = await (await this.sdk()).stripe.accounts.retrieve(accountId);
    return {
      account_id: account.id,
      charges_enabled: account.charges_enabled === true,
      details_submitted: account.details_submitted === true,
      payouts_enabled: account.payouts_enabled === true,
      projectId: typeof account.metadata?.gatehouse_project_id === 'string' ? account.metadata.gatehouse_project_id : null,
    };
  }

  async accountSession(accountId: string): Promise<string> {
    const session = await (await this.sdk()).stripe.accountSessions.create({
      account: accountId,
      components: {
        account_onboarding: { enabled: true },
        account_management: { enabled: true },
        notification_banner: { enabled: true },
        payments: { enabled: true },
        payouts: { enabled: true },
      },
    });
    return session.client_secret;
  }

  /**
   * Refunds `amountMinor` of a payment intent on the connected account; answers Stripe's refund id.
   * Stripe answers a request with an `idempotencyKey` it saw (24 h) with the first one's refund.
   */
  async refund(accountId: string, paymentIntentId: string, amountMinor: number, idempotencyKey: string): Promise<string> {
    const refund = await (await this.sdk()).stripe.refunds.create(
      { payment_intent: paymentIntentId, amount: amountMinor },
      { stripeAccount: accountId, idempotencyKey },
    );
    return refund.id;
  }

  /** A Stripe customer on the connected account for one of the project's customers. */
  async createCustomer(accountId: string, metadata: Record<string, string>): Promise<string> {
    const customer = await (await this.sdk()).stripe.customers.create({ metadata }, { stripeAccount: accountId });
    return customer.id;
  }

  /** A Stripe product on the connected account (subscriptions price per interval against one). */
  async createProduct(accountId: string, name: string, metadata: Record<string, string>): Promise<string> {
    const product = await (await this.sdk()).stripe.products.create({ name, metadata }, { stripeAccount: accountId });
    return product.id;
  }

  /** A one-time payment on the connected account; answers its client secret. */
  async createPaymentIntent(
    accountId: string,
    input: { amountMinor: number; currency: string; customerId: string; description: string; metadata: Record<string, string> },
  ): Promise<string> {
    const intent = await (await this.sdk()).stripe.paymentIntents.create(
      {
        amount: input.amountMinor,
        currency: input.currency.toLowerCase(),
        customer: input.customerId,
        description: input.description,
        automatic_payment_methods: { enabled: true },
        metadata: input.metadata,
      },
      { stripeAccount: accountId },
    );
    if (!intent.client_secret) throw new Error(`Stripe answered payment intent ${intent.id} without a client secret`);
    return intent.client_secret;
  }

  /**
   * A subscription on the connected account, incomplete until its first invoice is paid (or, with a
   * free trial, until its card is set up); answers the client secret that confirms it.
   */
  async createSubscription(
    accountId: string,
    input: {
      customerId: string;
      productId: string;
      currency: string;
      unitAmountMinor: number;
      interval: 'day' | 'week' | 'month' | 'year';
      intervalCount: number;
      quantity: number;
      trialEnd: Date | null;
      metadata: Record<string, string>;
    },
  ): Promise<string> {
    const subscription = await (await this.sdk()).stripe.subscriptions.create(
      {
        customer: input.customerId,
        items: [
          {
            price_data: {
              currency: input.currency.toLowerCase(),
              product: input.productId,
              unit_amount: input.unitAmountMinor,
              recurring: { interval: input.interval, interval_count: input.intervalCount },
            },
            quantity: input.quantity,
          },
        ],
        payment_behavior: 'default_incomplete',
        payment_settings: { save_default_payment_method: 'on_subscription' },
        ...(input.trialEnd ? { trial_end: Math.floor(input.trialEnd.getTime() / 1000) } : {}),
        metadata: input.metadata,
        expand: ['latest_invoice.confirmation_secret', 'pending_setup_intent'],
      },
      { stripeAccount: accountId },
    );
    const invoice = subscription.latest_invoice;
    const invoiceSecret = invoice && typeof invoice === 'object' ? invoice.confirmation_secret?.client_secret : undefined;
    const setupIntent = subscription.pending_setup_intent;
    const setupSecret = setupIntent && typeof setupIntent === 'object' ? setupIntent.client_secret : undefined;
    const secret = invoiceSecret ?? setupSecret;
    if (!secret) throw new Error(`Stripe answered subscription ${subscription.id} without a client secret`);
    return secret;
  }

  /** The subscription's first item (what a switch replaces) and its status; null when Stripe knows no such subscription. */
  async subscriptionItem(accountId: string, subscriptionId: string): Promise<{ itemId: string; status: string } | null> {
    const { stripe, errors } = await this.sdk();
    try {
      const subscription = await stripe.subscriptions.retrieve(subscriptionId, {}, { stripeAccount: accountId });
      const item = subscription.items.data[0];
      return item ? { itemId: item.id, status: subscription.status } : null;
    } catch (error) {
      if (isNotFound(errors, error)) return null;
      throw error;
    }
  }

  /** An off-session subscription paid at once (stripe-off-session.ts). */
  async createPaidSubscription(accountId: string, input: OffSessionSubscription): Promise<ChargeOutcome<PaidSubscription>> {
    return createPaidSubscription(await this.sdk(), accountId, input);
  }

  /** A subscription moved to a new price, prorations paid off-session at once (stripe-off-session.ts). */
  async switchSubscription(
    accountId: string,
    subscriptionId: string,
    input: OffSessionSubscription & { itemId: string },
  ): Promise<ChargeOutcome<PaidSubscription>> {
    return switchSubscription(await this.sdk(), accountId, subscriptionId, input);
  }

  /** A one-time payment charged off-session (stripe-off-session.ts). */
  async chargeOffSession(accountId: string, input: OffSessionPayment): Promise<ChargeOutcome<{ id: string }>> {
    return chargeOffSession(await this.sdk(), accountId, input);
  }

  /** Ends a subscription now (no further invoices); a subscription Stripe no longer knows counts as ended. */
  async cancelSubscription(accountId: string, subscriptionId: string): Promise<void> {
    const { stripe, errors } = await this.sdk();
    try {
      await stripe.subscriptions.cancel(subscriptionId, {}, { stripeAccount: accountId });
    } catch (error) {
      if (isNotFound(errors, error)) return;
      throw error;
    }
  }

  /** A page of the customer's invoices, newest first. */
  async invoices(accountId: string, customerId: string, page: { limit: number; startingAfter?: string }) {
    const list = await (await this.sdk()).stripe.invoices.list(
      { customer: customerId, limit: page.limit, ...(page.startingAfter ? { starting_after: page.startingAfter } : {}) },
      { stripeAccount: accountId },
    );
    return {
      items: list.data.map((invoice) => ({
        id: invoice.id as string,
        created_at_millis: invoice.created * 1000,
        status: invoice.status ?? null,
        amount_total: invoice.total,
        hosted_invoice_url: invoice.hosted_invoice_url ?? null,
      })),
      hasMore: list.has_more,
    };
  }

  /** A setup intent for saving a payment method of the customer off-session; answers its client secret. */
  async createSetupIntent(accountId: string, customerId: string): Promise<string> {
    const intent = await (await this.sdk()).stripe.setupIntents.create(
      { customer: customerId, usage: 'off_session', automatic_payment_methods: { enabled: true } },
      { stripeAccount: accountId },
    );
    if (!intent.client_secret) throw new Error(`Stripe answered setup intent ${intent.id} without a client secret`);
    return intent.client_secret;
  }

  /**
   * Makes a succeeded setup intent's payment method the customer's default for invoices; answers its
   * summary, or null when the setup intent is unknown, of another customer or not succeeded.
   */
  async setDefaultFromSetupIntent(accountId: string, customerId: string, setupIntentId: string) {
    let intent: Stripe.SetupIntent;
    const { errors } = await this.sdk();
    try {
      intent = await (await this.sdk()).stripe.setupIntents.retrieve(setupIntentId, {}, { stripeAccount: accountId });
    } catch (error) {
      if (isNotFound(errors, error)) return null;
      throw error;
    }
    const intentCustomer = typeof intent.customer === 'string' ? intent.customer : intent.customer?.id;
    const paymentMethodId = typeof intent.payment_method === 'string' ? intent.payment_method : intent.payment_method?.id;
    if (intentCustomer !== customerId || intent.status !== 'succeeded' || !paymentMethodId) return null;
    await (await this.sdk()).stripe.customers.update(
      customerId,
      { invoice_settings: { default_payment_method: paymentMethodId } },
      { stripeAccount: accountId },
    );
    const method = await (await this.sdk()).stripe.paymentMethods.retrieve(paymentMethodId, {}, { stripeAccount: accountId });
    return {
      id: method.id,
      brand: method.card?.brand ?? null,
      last4: method.card?.last4 ?? null,
      exp_month: method.card?.exp_month ?? null,
      exp_year: method.card?.exp_year ?? null,
    };
  }

  /** The connected account's payment method configuration (stripe-method-config.ts); null when it has none. */
  async methodConfig(accountId: string) {
    return methodConfigOf(await this.sdk(), accountId);
  }

  /** Sets display preferences on a configuration (stripe-method-config.ts); false when Stripe knows no such configuration. */
  async updateMethodConfig(accountId: string, configId: string, updates: Record<string, 'on' | 'off'>): Promise<boolean> {
    return updateMethodConfigOf(await this.sdk(), accountId, configId, updates);
  }

  /** The event a webhook delivery carries, or null when the signature is missing, wrong or too old. */
  async verifiedEvent(rawBody: string, signature: string | undefined): Promise<Stripe.Event | null> {
    if (!this.webhookSecret || !signature) return null;
    const { stripe } = await this.sdk();
    try {
      return stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret, webhookToleranceSeconds);
    } catch {
      return null;
    }
  }
}
