import {
  DefaultPaymentMethodRequiredError,
  PaymentMethodConfigurationInvalidError,
  PaymentMethodDeclinedError,
  StripeAccountInfoNotFoundError,
} from '@gatehouse/protocol/errors';
import { createHash } from 'node:crypto';
import type { DbHandle } from '../../../db/handle.ts';
import { PlainHttpError } from '../../../lib/plain-http-error.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { Currency, Price, Product } from './catalogue.ts';
import { addInterval } from './item-quantity.ts';
import {
  findStripeAccountId,
  findStripeCustomer,
  findStripeProductId,
  saveStripeAccountId,
  saveStripeCustomer,
  saveStripeProductId,
  setStripeDefaultPaymentMethod,
} from './stripe.repository.ts';
import type { Customer, PaymentService } from './payment.service.ts';
import type { Audience } from './payment-views.ts';
import { applySwitch, planSwitch } from './product-switch.ts';
import type { StripeGateway } from './stripe-gateway.ts';
import { endedSubscriptionStatuses, record, text, toMinorUnits } from './stripe-values.ts';

const unknownConfiguration = (configId: string) =>
  new PaymentMethodConfigurationInvalidError(
    { reason: 'unknown_configuration', config_id: configId },
    `No payment method configuration ${configId} on this project's Stripe account.`,
  );

/**
 * Stripe mode (docs/protocol/endpoints.md §22, §25): each project's connected account (onboarding link, account
 * info, embedded-component sessions), payments started on it, off-session charges of product switches and
 * saved payment methods. The Connect webhook is StripeWebhookService's (stripe-webhook.service.ts).
 */
export class StripeService {
  constructor(
    private readonly db: DbHandle,
    private readonly gateway: StripeGateway | null,
    private readonly payments: PaymentService,
    private readonly dashboardUrl: string,
    private readonly browser: { publishableKey: string; jsUrl: string; connectJsUrl?: string } | null = null,
  ) {}

  /** What the checkout page's Stripe.js needs (the platform's publishable key, where Stripe.js is); null when Stripe mode is off. */
  browserSettings(): { publishableKey: string; jsUrl: string } | null {
    return this.gateway && this.browser ? { publishableKey: this.browser.publishableKey, jsUrl: this.browser.jsUrl } : null;
  }

  /**
   * What the dashboard's embedded Connect components need (the platform's publishable key, where Connect.js is),
   * given to it in its public config; null when Stripe mode is off or no publishable key is set.
   */
  dashboardSettings(): { publishableKey: string; connectJsUrl: string } | null {
    return this.gateway && this.browser?.connectJsUrl
      ? { publishableKey: this.browser.publishableKey, connectJsUrl: this.browser.connectJsUrl }
      : null;
  }

  private requireGateway(): StripeGateway {
    if (!this.gateway) throw new PlainHttpError(400, 'Stripe mode is off on this server: set STRIPE_SECRET_KEY to connect Stripe.');
    return this.gateway;
  }

  /** The project's connected account, created the first time; then a fresh onboarding link of it. */
  async onboardingLink(project: Project): Promise<string> {
    const gateway = this.requireGateway();
    let accountId = await findStripeAccountId(this.db, project.id);
    if (!accountId) accountId = await saveStripeAccountId(this.db, project.id, await gateway.createAccount(project.id));
    return gateway.onboardingLink(accountId, `${this.dashboardUrl}/projects/${encodeURIComponent(project.id)}/payments`);
  }

  private async accountOf(project: Project): Promise<{ gateway: StripeGateway; accountId: string }> {
    const accountId = this.gateway ? await findStripeAccountId(this.db, project.id) : undefined;
    if (!this.gateway || !accountId) throw new StripeAccountInfoNotFoundError();
    return { gateway: this.gateway, accountId };
  }

  async accountInfo(project: Project) {
    const { gateway, accountId } = await this.accountOf(project);
    const { projectId: _projectId, ...info } = await gateway.account(accountId);
    return info;
  }

  async accountSession(project: Project): Promise<string> {
    const { gateway, accountId } = await this.accountOf(project);
    return gateway.accountSession(accountId);
  }

  /** The connected account the checkout page pays to, and whether it may charge; null without one (never fails). */
  async checkoutAccount(project: Project): Promise<{ accountId: string; chargesEnabled: boolean } | null> {
    const accountId = this.gateway ? await findStripeAccountId(this.db, project.id) : undefined;
    if (!this.gateway || !accountId) return null;
    try {
      return { accountId, chargesEnabled: (await this.gateway.account(accountId)).charges_enabled };
    } catch {
      return { accountId, chargesEnabled: false };
    }
  }

  /** The customer's Stripe customer on the connected account, created the first time. */
  private async stripeCustomerOf(gateway: StripeGateway, accountId: string, project: Project, customer: Customer): Promise<string> {
    const existing = await findStripeCustomer(this.db, project.id, customer);
    if (existing) return existing.stripe_customer_id;
    const created = await gateway.createCustomer(accountId, {
      gatehouse_project_id: project.id,
      gatehouse_customer_type: customer.type,
      gatehouse_customer_id: customer.id,
    });
    return saveStripeCustomer(this.db, project.id, customer, created);
  }

  /** The Stripe product a catalogue product is sold as, created the first time. */
  private async stripeProductOf(
    gateway: StripeGateway,
    accountId: string,
    project: Project,
    productId: string | null,
    product: Product,
  ): Promise<string> {
    const key = productId ?? `inline:${createHash('sha256').update(JSON.stringify(product)).digest('hex').slice(0, 32)}`;
    const existing = await findStripeProductId(this.db, project.id, key);
    if (existing) return existing;
    const created = await gateway.createProduct(accountId, product.displayName, { gatehouse_product_key: key });
    return saveStripeProductId(this.db, project.id, key, created);
  }

  /**
   * Starts a Stripe payment of a checked purchase on the connected account: a payment intent for a
   * one-time price, a subscription for a price with an interval (free trial of the price, else the
   * product). The metadata names the purchase for the webhook. Answers the client secret.
   */
  async startPayment(
    project: Project,
    customer: Customer,
    purchase: {
      purchaseCodeId: string;
      productId: string | null;
      product: Product;
      priceId: string;
      price: Price;
      quantity: number;
      currency: Currency;
      amount: string;
    },
  ): Promise<string> {
    const { gateway, accountId } = await this.accountOf(project);
    const stripeCustomerId = await this.stripeCustomerOf(gateway, accountId, project, customer);
    const metadata: Record<string, string> = {
      customer_type: customer.type,
      customer_id: customer.id,
      ...(purchase.productId === null ? {} : { product_id: purchase.productId }),
      price_id: purchase.priceId,
      quantity: String(purchase.quantity),
      purchase_code_id: purchase.purchaseCodeId,
    };
    const unitAmountMinor = toMinorUnits(purchase.amount, purchase.currency);
    const interval = purchase.price.interval;
    if (!interval) {
      return gateway.createPaymentIntent(accountId, {
        amountMinor: unitAmountMinor * purchase.quantity,
        currency: purchase.currency,
        customerId: stripeCustomerId,
        description: purchase.product.displayName,
        metadata,
      });
    }
    const trial = purchase.price.freeTrial ?? purchase.product.freeTrial;
    return gateway.createSubscription(accountId, {
      customerId: stripeCustomerId,
      productId: await this.stripeProductOf(gateway, accountId, project, purchase.productId, purchase.product),
      currency: purchase.currency,
      unitAmountMinor,
      interval: interval[1],
      intervalCount: interval[0],
      quantity: purchase.quantity,
      trialEnd: trial ? addInterval(new Date(), trial) : null,
      metadata,
    });
  }

  /**
   * Switches the customer to another product of a line (docs/protocol/endpoints.md §22). A paid target outside test
   * mode is charged to the customer's default payment method, off-session on the connected account:
   * a `from` bought as a Stripe subscription has that subscription moved to the new price (prorations
   * invoiced and paid at once) when the target has an interval, or is canceled once the one-time
   * price is paid; anything else starts a new paid subscription (or one-time payment). Only then does
   * the customer get the target. No default payment method: DEFAULT_PAYMENT_METHOD_REQUIRED; a card
   * Stripe refuses: PAYMENT_METHOD_DECLINED, and nothing changed.
   */
  async switchProduct(
    project: Project,
    customer: Customer,
    input: { from: string; to: string; priceId?: string; quantity?: number },
    audience: Audience,
  ): Promise<void> {
    const plan = await planSwitch(this.payments, this.db, project, customer, input, audience);
    if (!plan.charge) {
      // A move to a free product ends the Stripe subscription `from` was billed by (it would go on charging).
      const billedBy = plan.fromRow.stripe_subscription_id;
      const account = billedBy && this.gateway ? await findStripeAccountId(this.db, project.id) : undefined;
      if (billedBy && account && this.gateway) await this.gateway.cancelSubscription(account, billedBy);
      return applySwitch(this.payments, project, customer, plan);
    }
    const customerRef = customer as Customer & { type: 'user' | 'team' };
    const accountId = this.gateway ? await findStripeAccountId(this.db, project.id) : undefined;
    const stripeCustomer = accountId ? await findStripeCustomer(this.db, project.id, customer) : undefined;
    const paymentMethodId = text(record(stripeCustomer?.default_payment_method).id);
    if (!this.gateway || !accountId || !stripeCustomer || !paymentMethodId)
      throw new DefaultPaymentMethodRequiredError({ customer_type: customerRef.type, customer_id: customer.id });
    const gateway = this.gateway;
    const price = plan.price as Price;
    const currency = plan.currency as Currency;
    const unitAmountMinor = toMinorUnits(plan.amount as string, currency);
    const metadata: Record<string, string> = {
      customer_type: customer.type,
      customer_id: customer.id,
      product_id: plan.toId,
      price_id: plan.priceId as string,
      quantity: String(plan.quantity),
      switched_from: plan.fromRow.id,
    };
    const declined = (outcome: { requiresAction: boolean; declineCode: string | null }) =>
      new PaymentMethodDeclinedError({
        customer_type: customerRef.type,
        customer_id: customer.id,
        requires_action: outcome.requiresAction,
        decline_code: outcome.declineCode,
      });
    const fromSubscription = plan.fromRow.stripe_subscription_id;
    const interval = price.interval;
    if (!interval) {
      const charged = await gateway.chargeOffSession(accountId, {
        amountMinor: unitAmountMinor * plan.quantity,
        currency,
        customerId: stripeCustomer.stripe_customer_id,
        paymentMethodId,
        description: plan.to.displayName,
        metadata,
      });
      if (!charged.ok) throw declined(charged);
      if (fromSubscription) await gateway.cancelSubscription(accountId, fromSubscription);
      return applySwitch(this.payments, project, customer, plan, {
        subscriptionId: null,
        paymentIntentId: charged.value.id,
        currentPeriodEnd: null,
      });
    }
    const subscription = {
      customerId: stripeCustomer.stripe_customer_id,
      paymentMethodId,
      productId: await this.stripeProductOf(gateway, accountId, project, plan.toId, plan.to),
      currency,
      unitAmountMinor,
      interval: interval[1],
      intervalCount: interval[0],
      quantity: plan.quantity,
      metadata,
    };
    const current = fromSubscription ? await gateway.subscriptionItem(accountId, fromSubscription) : null;
    const paid =
      fromSubscription && current && !endedSubscriptionStatuses.has(current.status)
        ? await gateway.switchSubscription(accountId, fromSubscription, { ...subscription, itemId: current.itemId })
        : await gateway.createPaidSubscription(accountId, subscription);
    if (!paid.ok) throw declined(paid);
    return applySwitch(this.payments, project, customer, plan, {
      subscriptionId: paid.value.id,
      paymentIntentId: null,
      currentPeriodEnd: paid.value.currentPeriodEnd,
    });
  }

  /** The payment methods the connected account's checkout offers (its default configuration). */
  async methodConfig(project: Project) {
    const { gateway, accountId } = await this.accountOf(project);
    const config = await gateway.methodConfig(accountId);
    if (!config)
      throw new PaymentMethodConfigurationInvalidError(
        { reason: 'none_yet' },
        'Stripe has no payment method configuration for this account yet.',
      );
    return config;
  }

  /** Turns payment methods on or off on the configuration the GET answers; another configuration or a method it lacks is PAYMENT_METHOD_CONFIGURATION_INVALID. */
  async updateMethodConfig(project: Project, configId: string, updates: Record<string, 'on' | 'off'>): Promise<void> {
    const { gateway, accountId } = await this.accountOf(project);
    const config = await gateway.methodConfig(accountId);
    if (config?.config_id !== configId) throw unknownConfiguration(configId);
    const known = new Set(config.methods.map((method) => method.id));
    const unknown = Object.keys(updates).filter((methodId) => !known.has(methodId));
    if (unknown.length > 0)
      throw new PaymentMethodConfigurationInvalidError(
        { reason: 'unknown_payment_methods', config_id: configId, payment_method_ids: unknown },
        `Unknown payment methods: ${unknown.join(', ')}.`,
      );
    if (!(await gateway.updateMethodConfig(accountId, configId, updates))) throw unknownConfiguration(configId);
  }

  /** Billing details from what Stripe mode stored (no call to Stripe): never fails. */
  async billing(project: Project, customer: Customer) {
    const row = await findStripeCustomer(this.db, project.id, customer);
    return {
      has_customer: row !== undefined,
      default_payment_method: (row?.default_payment_method ?? null) as {
        id: string;
        brand: string | null;
        last4: string | null;
        exp_month: number | null;
        exp_year: number | null;
      } | null,
    };
  }

  /** A page of the customer's Stripe invoices; empty without a connected account or a Stripe customer. */
  async invoices(project: Project, customer: Customer, page: { cursor?: string; limit: number }) {
    const accountId = this.gateway ? await findStripeAccountId(this.db, project.id) : undefined;
    const stripeCustomer = accountId ? await findStripeCustomer(this.db, project.id, customer) : undefined;
    if (!this.gateway || !accountId || !stripeCustomer) return { items: [], nextCursor: null };
    const { items, hasMore } = await this.gateway.invoices(accountId, stripeCustomer.stripe_customer_id, {
      limit: page.limit,
      startingAfter: page.cursor,
    });
    return {
      items: items.map(({ id: _id, ...invoice }) => invoice),
      nextCursor: hasMore && items.length > 0 ? (items.at(-1)?.id ?? null) : null,
    };
  }

  async setupIntent(project: Project, customer: Customer): Promise<{ client_secret: string; stripe_account_id: string }> {
    const { gateway, accountId } = await this.accountOf(project);
    await this.payments.assertCustomerExists(project, customer);
    const stripeCustomerId = await this.stripeCustomerOf(gateway, accountId, project, customer);
    return { client_secret: await gateway.createSetupIntent(accountId, stripeCustomerId), stripe_account_id: accountId };
  }

  async setDefaultPaymentMethod(project: Project, customer: Customer, setupIntentId: string) {
    const { gateway, accountId } = await this.accountOf(project);
    const stripeCustomer = await findStripeCustomer(this.db, project.id, customer);
    const method = stripeCustomer
      ? await gateway.setDefaultFromSetupIntent(accountId, stripeCustomer.stripe_customer_id, setupIntentId)
      : null;
    if (!stripeCustomer || !method)
      throw new PlainHttpError(400, `Setup intent ${setupIntentId} is unknown, of another customer, or has not succeeded.`);
    await setStripeDefaultPaymentMethod(this.db, project.id, customer, method);
    return method;
  }
}
