import type Stripe from 'stripe';
import type { PaymentSettings } from './payment-settings.ts';

/** Display names of Stripe's payment method types (the rest: the type in words). */
const methodNames: Record<string, string> = {
  card: 'Card',
  link: 'Link',
  apple_pay: 'Apple Pay',
  google_pay: 'Google Pay',
  us_bank_account: 'US bank account',
  sepa_debit: 'SEPA Direct Debit',
  ideal: 'iDEAL',
  klarna: 'Klarna',
  afterpay_clearpay: 'Afterpay / Clearpay',
  cashapp: 'Cash App Pay',
};

/** Signature tolerance of the webhook: Stripe's default, 5 minutes. */
const webhookToleranceSeconds = 300;

/**
 * The platform's Stripe account through the `stripe` SDK: connected accounts of projects (Connect,
 * Express), their onboarding links and embedded-component sessions, refunds on a connected account,
 * and the webhook signature check. The SDK loads at the first call (issue #20: idle memory).
 */
export class StripeGateway {
  private client: Promise<{ stripe: Stripe; errors: typeof Stripe.errors }> | undefined;

  constructor(
    private readonly secretKey: string,
    private readonly webhookSecret: string | null,
    private readonly apiUrl: string | null,
  ) {}

  private sdk(): Promise<{ stripe: Stripe; errors: typeof Stripe.errors }> {
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
      if (error instanceof errors.StripeInvalidRequestError && error.statusCode === 404) return null;
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

  /**
   * Runs an off-session charge: a card Stripe refuses (declined, or its bank asks the customer to
   * authenticate, which nobody can do off-session) is an answer, not an exception.
   */
  private async charging<T>(run: (stripe: Stripe) => Promise<T>): Promise<ChargeOutcome<T>> {
    const { stripe, errors } = await this.sdk();
    try {
      return { ok: true, value: await run(stripe) };
    } catch (error) {
      if (!(error instanceof errors.StripeCardError)) throw error;
      const intent = (error.raw as { payment_intent?: { status?: string } } | undefined)?.payment_intent;
      const code = error.code ?? null;
      return {
        ok: false,
        requiresAction:
          intent?.status === 'requires_action' ||
          code === 'authentication_required' ||
          code === 'subscription_payment_intent_requires_action',
        declineCode: error.decline_code || code,
      };
    }
  }

  /** The subscription's first item (what a switch replaces) and its status; null when Stripe knows no such subscription. */
  async subscriptionItem(accountId: string, subscriptionId: string): Promise<{ itemId: string; status: string } | null> {
    const { stripe, errors } = await this.sdk();
    try {
      const subscription = await stripe.subscriptions.retrieve(subscriptionId, {}, { stripeAccount: accountId });
      const item = subscription.items.data[0];
      return item ? { itemId: item.id, status: subscription.status } : null;
    } catch (error) {
      if (error instanceof errors.StripeInvalidRequestError && error.statusCode === 404) return null;
      throw error;
    }
  }

  /**
   * A subscription on the connected account paid at once with the customer's saved payment method,
   * off-session (`error_if_incomplete`: Stripe creates nothing when the first invoice cannot be paid).
   */
  createPaidSubscription(accountId: string, input: OffSessionSubscription): Promise<ChargeOutcome<PaidSubscription>> {
    return this.charging(async (stripe) => {
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
  switchSubscription(
    accountId: string,
    subscriptionId: string,
    input: OffSessionSubscription & { itemId: string },
  ): Promise<ChargeOutcome<PaidSubscription>> {
    return this.charging(async (stripe) => {
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
  chargeOffSession(
    accountId: string,
    input: {
      amountMinor: number;
      currency: string;
      customerId: string;
      paymentMethodId: string;
      description: string;
      metadata: Record<string, string>;
    },
  ): Promise<ChargeOutcome<{ id: string }>> {
    return this.charging(async (stripe) => {
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

  /** Ends a subscription now (no further invoices); a subscription Stripe no longer knows counts as ended. */
  async cancelSubscription(accountId: string, subscriptionId: string): Promise<void> {
    const { stripe, errors } = await this.sdk();
    try {
      await stripe.subscriptions.cancel(subscriptionId, {}, { stripeAccount: accountId });
    } catch (error) {
      if (error instanceof errors.StripeInvalidRequestError && error.statusCode === 404) return;
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
      if (error instanceof errors.StripeInvalidRequestError && error.statusCode === 404) return null;
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

  /** The connected account's default payment method configuration (else its first) with each method's state; null when it has none. */
  async methodConfig(accountId: string) {
    const { stripe } = await this.sdk();
    const list = await stripe.paymentMethodConfigurations.list({ limit: 100 }, { stripeAccount: accountId });
    const config = list.data.find((candidate) => candidate.is_default) ?? list.data[0];
    if (!config) return null;
    const methods = Object.entries(config as unknown as Record<string, unknown>).flatMap(([id, value]) => {
      const method = value as { available?: unknown; display_preference?: { overridable?: boolean | null; value?: string } } | null;
      if (!method || typeof method !== 'object' || typeof method.available !== 'boolean' || !method.display_preference) return [];
      return [
        {
          id,
          name:
            methodNames[id] ??
            id
              .split('_')
              .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
              .join(' '),
          enabled: method.display_preference.value === 'on',
          available: method.available,
          overridable: method.display_preference.overridable ?? null,
        },
      ];
    });
    return { config_id: config.id, methods };
  }

  /** Sets display preferences on a configuration of the connected account; false when Stripe knows no such configuration there. */
  async updateMethodConfig(accountId: string, configId: string, updates: Record<string, 'on' | 'off'>): Promise<boolean> {
    const params = Object.fromEntries(
      Object.entries(updates).map(([methodId, preference]) => [methodId, { display_preference: { preference } }]),
    ) as Stripe.PaymentMethodConfigurationUpdateParams;
    const { stripe, errors } = await this.sdk();
    try {
      await stripe.paymentMethodConfigurations.update(configId, params, { stripeAccount: accountId });
      return true;
    } catch (error) {
      if (error instanceof errors.StripeInvalidRequestError && error.statusCode === 404) return false;
      throw error;
    }
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
