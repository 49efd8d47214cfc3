import { KnownError, StripeWebhookSignatureInvalidError } from '@gatehouse/protocol/errors';
import type Stripe from 'stripe';
import { type DbHandle, inTransaction } from '../../../db/handle.ts';
import { PlainHttpError } from '../../../lib/plain-http-error.ts';
import { isUuid } from '../../../lib/uuid.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { ProjectService } from '../../platform/projects/index.ts';
import type { Currency, CustomerType, Product } from './catalogue.ts';
import { findProductRowByStripeId, renewCustomerProduct, updateSubscriptionState } from './customer-product.repository.ts';
import type { PaymentService } from './payment.service.ts';
import { findPurchaseCodeById, usePurchaseCode } from './purchase-code.repository.ts';
import type { StripeGateway } from './stripe-gateway.ts';
import { findStripeAccountId, markStripeEventApplied, takeStripeEvent } from './stripe.repository.ts';
import { endedSubscriptionStatuses, type Metadata, record, text, toMoney } from './stripe-values.ts';
import type { TransactionService } from './transaction.service.ts';

/** An invoice as Stripe's older API versions also deliver it (the subscription and its metadata on the invoice itself). */
type LegacyInvoice = Stripe.Invoice & {
  subscription?: string | null;
  payment_intent?: string | null;
  subscription_details?: { metadata?: Stripe.Metadata | null } | null;
};
/** A subscription as older API versions also deliver it (the period end on the subscription, not its items). */
type LegacySubscription = Stripe.Subscription & { current_period_end?: number };

/**
 * The Connect webhook of Stripe mode (docs/protocol/endpoints.md §25): applies purchases, renewals,
 * cancellations and refunds of a project's connected account once per Stripe event id.
 */
export class StripeWebhookService {
  constructor(
    private readonly db: DbHandle,
    private readonly gateway: StripeGateway | null,
    private readonly payments: PaymentService,
    private readonly transactions: TransactionService,
    private readonly projects: ProjectService,
  ) {}

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

  private async apply(trx: DbHandle, project: Project, event: Stripe.Event): Promise<boolean> {
    switch (event.type) {
      case 'payment_intent.succeeded': {
        const intent = event.data.object;
        return this.purchase(trx, project, record(intent.metadata), { paymentIntentId: text(intent.id) ?? null });
      }
      case 'invoice.paid':
        return this.invoicePaid(trx, project, event.data.object);
      case 'customer.subscription.deleted': {
        const id = text(event.data.object.id);
        const row = id ? await findProductRowByStripeId(trx, project.id, { subscriptionId: id }) : undefined;
        return row ? this.payments.end(trx, project, row, 'canceled', new Date()) : false;
      }
      case 'customer.subscription.updated':
        return this.subscriptionUpdated(trx, project, event.data.object);
      case 'charge.refunded': {
        const charge = event.data.object;
        const paymentIntentId = text(charge.payment_intent);
        const row = paymentIntentId ? await findProductRowByStripeId(trx, project.id, { paymentIntentId }) : undefined;
        if (!row || row.refunded_at !== null) return false;
        const currency = (text(charge.currency) ?? 'usd').toUpperCase();
        const refundId = text(charge.refunds?.data?.[0]?.id);
        const id = await this.transactions.applyRefund(trx, project, row, {
          amount: toMoney(Number(charge.amount_refunded ?? 0), currency),
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

  /**
   * Stripe changed a subscription: ended for good (canceled, incomplete and expired) it ends the
   * product; otherwise its period end and `cancel_at_period_end` are kept.
   */
  private async subscriptionUpdated(trx: DbHandle, project: Project, subscription: LegacySubscription): Promise<boolean> {
    const id = text(subscription.id);
    const row = id ? await findProductRowByStripeId(trx, project.id, { subscriptionId: id }) : undefined;
    if (!row) return false;
    if (endedSubscriptionStatuses.has(text(subscription.status) ?? '')) return this.payments.end(trx, project, row, 'canceled', new Date());
    const periodEndSeconds = Number(subscription.items?.data?.[0]?.current_period_end ?? subscription.current_period_end);
    return updateSubscriptionState(trx, project.id, row.id, {
      currentPeriodEnd: Number.isFinite(periodEndSeconds) && periodEndSeconds > 0 ? new Date(periodEndSeconds * 1000) : null,
      cancelAtPeriodEnd: subscription.cancel_at_period_end === true,
    });
  }

  /** The first paid invoice of a subscription grants it; a later one renews it (its period end moves on). */
  private async invoicePaid(trx: DbHandle, project: Project, invoice: LegacyInvoice): Promise<boolean> {
    const parent = invoice.parent?.subscription_details;
    const subscriptionId = text(invoice.subscription) ?? text(parent?.subscription);
    if (!subscriptionId) return false;
    const periodEndSeconds = Number(invoice.lines?.data?.[0]?.period?.end ?? invoice.period_end);
    const periodEnd = Number.isFinite(periodEndSeconds) && periodEndSeconds > 0 ? new Date(periodEndSeconds * 1000) : null;
    const existing = await findProductRowByStripeId(trx, project.id, { subscriptionId });
    if (existing) return periodEnd ? renewCustomerProduct(trx, project.id, existing.id, periodEnd) : false;
    const metadata = record(invoice.subscription_details?.metadata);
    return this.purchase(trx, project, Object.keys(metadata).length > 0 ? metadata : record(parent?.metadata), {
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
    const priceId = text(metadata.price_id);
    if (!customerType || !['user', 'team', 'custom'].includes(customerType) || !customerId || !priceId) return false;
    // The purchase code keeps the product as it was sold (also an inline one); without one, the catalogue's.
    const purchaseCodeId = text(metadata.purchase_code_id);
    const code = purchaseCodeId && isUuid(purchaseCodeId) ? await findPurchaseCodeById(trx, project.id, purchaseCodeId) : undefined;
    const productId = code ? code.product_id : (text(metadata.product_id) ?? null);
    if (!code && productId === null) return false;
    const product: Product = code ? (code.product as Product) : this.payments.productFor(project, productId as string, 'server');
    const price = product.prices === 'include-by-default' ? undefined : product.prices[priceId];
    if (!price) return false;
    const quantity = Math.max(1, Number.parseInt(text(metadata.quantity) ?? '1', 10) || 1);
    const [currency, amount] = (
      price.amounts.USD !== undefined ? ['USD', price.amounts.USD] : (Object.entries(price.amounts)[0] ?? ['USD', '0'])
    ) as [Currency, string];
    // Inside the event's transaction the grant does not look the customer up again (that would go
    // through the pool): it is the one the purchase was created for, checked then, and it has paid.
    const { created } = await this.payments.grantOnce(
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
    if (code) await usePurchaseCode(trx, project.id, code.id, new Date());
    return created;
  }
}
