import { KnownError, StripeAccountInfoNotFoundError, StripeWebhookSignatureInvalidError } from '@gatehouse/protocol/errors';
import { type DbHandle, inTransaction } from '../../db/handle.ts';
import { PlainHttpError } from '../../lib/plain-http-error.ts';
import type { Project } from '../../tenancy/project.ts';
import type { ProjectService } from '../projects/project.service.ts';
import type { Currency, CustomerType, Product } from './catalogue.ts';
import {
  findProductRowByStripeId,
  findStripeAccountId,
  markStripeEventApplied,
  renewCustomerProduct,
  saveStripeAccountId,
  takeStripeEvent,
} from './payment.repository.ts';
import type { PaymentService } from './payment.service.ts';
import type { StripeEvent, StripeGateway } from './stripe-gateway.ts';
import type { TransactionService } from './transaction.service.ts';

type Metadata = Record<string, unknown>;
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const record = (value: unknown): Metadata => (value !== null && typeof value === 'object' ? (value as Metadata) : {});
/** Stripe's zero-decimal currencies among the catalogue's (amounts in whole units). */
const zeroDecimal = new Set(['JPY', 'KRW']);
const toMoney = (minor: number, currency: string) =>
  zeroDecimal.has(currency) ? String(minor) : (minor / 100).toFixed(2).replace(/\.?0+$/, '') || '0';

/**
 * Stripe mode (endpoints.md §22, §25): each project's connected account (onboarding link, account
 * info, embedded-component sessions) and the Connect webhook, which applies purchases, renewals,
 * cancellations and refunds once per Stripe event id.
 */
export class StripeService {
  constructor(
    private readonly db: DbHandle,
    private readonly gateway: StripeGateway | null,
    private readonly payments: PaymentService,
    private readonly transactions: TransactionService,
    private readonly projects: ProjectService,
    private readonly dashboardUrl: string,
  ) {}

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

  /**
   * A webhook delivery: the signature first, then the project of the event's connected account, then
   * the event once per id. What names nothing here is acknowledged so Stripe stops retrying.
   */
  async receive(rawBody: string, signature: string | undefined): Promise<{ received: true; applied: boolean }> {
    const event = (await this.gateway?.verifiedEvent(rawBody, signature)) ?? null;
    if (!event) throw new StripeWebhookSignatureInvalidError();
    const project = await this.projectOfAccount(text(event.account));
    if (!project) return { received: true, applied: false };
    const applied = await inTransaction(this.db, async (trx) => {
      if (!(await takeStripeEvent(trx, project.id, event.id, event.type))) return false;
      let changed: boolean;
      try {
        changed = await inTransaction(trx, (savepoint) => this.apply(savepoint, project, event));
      } catch (error) {
        // A purchase the catalogue no longer allows (or a customer gone) is kept as received, not retried.
        if (error instanceof KnownError || error instanceof PlainHttpError) changed = false;
        else throw error;
      }
      if (changed) await markStripeEventApplied(trx, project.id, event.id);
      return changed;
    });
    return { received: true, applied };
  }

  private async projectOfAccount(accountId: string | undefined): Promise<Project | undefined> {
    if (!accountId || !this.gateway) return undefined;
    const projectId = (await this.gateway.findAccount(accountId))?.projectId;
    const project = projectId ? await this.projects.find(projectId) : undefined;
    if (!project || (await findStripeAccountId(this.db, project.id)) !== accountId) return undefined;
    return project;
  }

  private async apply(trx: DbHandle, project: Project, event: StripeEvent): Promise<boolean> {
    const object = record(event.data?.object);
    switch (event.type) {
      case 'payment_intent.succeeded':
        return this.purchase(trx, project, record(object.metadata), { paymentIntentId: text(object.id) ?? null });
      case 'invoice.paid':
        return this.invoicePaid(trx, project, object);
      case 'customer.subscription.deleted': {
        const id = text(object.id);
        const row = id ? await findProductRowByStripeId(trx, project.id, { subscriptionId: id }) : undefined;
        return row ? this.payments.end(trx, project, row, 'canceled', new Date()) : false;
      }
      case 'charge.refunded': {
        const paymentIntentId = text(object.payment_intent);
        const row = paymentIntentId ? await findProductRowByStripeId(trx, project.id, { paymentIntentId }) : undefined;
        if (!row || row.refunded_at !== null) return false;
        const currency = (text(object.currency) ?? 'usd').toUpperCase();
        const refunds = record(object.refunds).data;
        const refundId = Array.isArray(refunds) ? text(record(refunds[0]).id) : undefined;
        const id = await this.transactions.applyRefund(trx, project, row, {
          amount: toMoney(Number(object.amount_refunded ?? 0), currency),
          currency,
          testMode: false,
          stripeRefundId: refundId ?? null,
        });
        return id !== null;
      }
      default:
        return false;
    }
  }

  /** The first paid invoice of a subscription grants it; a later one renews it (its period end moves on). */
  private async invoicePaid(trx: DbHandle, project: Project, invoice: Metadata): Promise<boolean> {
    const parent = record(record(invoice.parent).subscription_details);
    const subscriptionId = text(invoice.subscription) ?? text(parent.subscription);
    if (!subscriptionId) return false;
    const line = record(Array.isArray(record(invoice.lines).data) ? (record(invoice.lines).data as unknown[])[0] : undefined);
    const periodEndSeconds = Number(record(line.period).end ?? invoice.period_end);
    const periodEnd = Number.isFinite(periodEndSeconds) && periodEndSeconds > 0 ? new Date(periodEndSeconds * 1000) : null;
    const existing = await findProductRowByStripeId(trx, project.id, { subscriptionId });
    if (existing) return periodEnd ? renewCustomerProduct(trx, project.id, existing.id, periodEnd) : false;
    const metadata = record(record(invoice.subscription_details).metadata);
    return this.purchase(trx, project, Object.keys(metadata).length > 0 ? metadata : record(parent.metadata), {
      subscriptionId,
      paymentIntentId: text(invoice.payment_intent) ?? null,
      currentPeriodEnd: periodEnd,
    });
  }

  /** Grants the product a Stripe payment bought (metadata of the purchase session); false when it names nothing. */
  private async purchase(
    trx: DbHandle,
    project: Project,
    metadata: Metadata,
    stripe: { paymentIntentId: string | null; subscriptionId?: string; currentPeriodEnd?: Date | null },
  ): Promise<boolean> {
    const customerType = text(metadata.customer_type) as CustomerType | undefined;
    const customerId = text(metadata.customer_id);
    const productId = text(metadata.product_id);
    const priceId = text(metadata.price_id);
    if (!customerType || !['user', 'team', 'custom'].includes(customerType) || !customerId || !productId || !priceId) return false;
    const product: Product = this.payments.productFor(project, productId, 'server');
    const price = product.prices === 'include-by-default' ? undefined : product.prices[priceId];
    if (!price) return false;
    const quantity = Math.max(1, Number.parseInt(text(metadata.quantity) ?? '1', 10) || 1);
    const [currency, amount] = (Object.entries(price.amounts)[0] ?? ['USD', '0']) as [Currency, string];
    await this.payments.grant(
      project,
      { type: customerType, id: customerId },
      {
        productId,
        product,
        quantity,
        priceId,
        source: 'stripe',
        amount,
        currency,
        stripePaymentIntentId: stripe.paymentIntentId,
        stripeSubscriptionId: stripe.subscriptionId ?? null,
        currentPeriodEnd: stripe.currentPeriodEnd ?? null,
      },
      trx,
    );
    return true;
  }
}
