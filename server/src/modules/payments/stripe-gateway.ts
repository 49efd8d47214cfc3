import type Stripe from 'stripe';
import type { PaymentSettings } from './payment-settings.ts';

/** The part of a Stripe event the webhook reads (Stripe's shape; every field checked where it is used). */
export type StripeEvent = { id: string; type: string; account?: string | null; data: { object: Record<string, unknown> } };

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
        account_management: { enabled: true },
        notification_banner: { enabled: true },
        payments: { enabled: true },
        payouts: { enabled: true },
      },
    });
    return session.client_secret;
  }

  /** Refunds `amountMinor` of a payment intent on the connected account; answers Stripe's refund id. */
  async refund(accountId: string, paymentIntentId: string, amountMinor: number): Promise<string> {
    const refund = await (await this.sdk()).stripe.refunds.create(
      { payment_intent: paymentIntentId, amount: amountMinor },
      { stripeAccount: accountId },
    );
    return refund.id;
  }

  /** The event a webhook delivery carries, or null when the signature is missing, wrong or too old. */
  async verifiedEvent(rawBody: string, signature: string | undefined): Promise<StripeEvent | null> {
    if (!this.webhookSecret || !signature) return null;
    const { stripe } = await this.sdk();
    try {
      return stripe.webhooks.constructEvent(rawBody, signature, this.webhookSecret, webhookToleranceSeconds) as unknown as StripeEvent;
    } catch {
      return null;
    }
  }
}
