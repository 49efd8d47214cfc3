import { randomUUID } from 'node:crypto';
import type { components } from '@gatehouse/protocol/api-types';
import {
  OneTimePurchaseAlreadyRefundedError,
  OneTimePurchaseNotFoundError,
  RefundNotPossibleError,
  SubscriptionAlreadyRefundedError,
  SubscriptionInvoiceNotFoundError,
  TestModePurchaseNonRefundableError,
} from '@gatehouse/protocol/errors';
import { type DbHandle, inTransaction } from '../../../db/handle.ts';
import { PlainHttpError } from '../../../lib/plain-http-error.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { EventLog } from '../../platform/events/index.ts';
import type { CustomerType, Product } from './catalogue.ts';
import { type CustomerProductRow, findCustomerProductRow } from './customer-product.repository.ts';
import { lockCustomer } from './item-ledger.repository.ts';
import { findStripeAccountId } from './stripe.repository.ts';
import { insertRefund, listTransactionRows, type TransactionKindFilter, type TransactionRow } from './transaction.repository.ts';
import type { StripeGateway } from './stripe-gateway.ts';
import { isUuid } from '../../../lib/uuid.ts';

type Transaction = components['schemas']['Transaction'];
type TransactionType = components['schemas']['TransactionType'];
export type RefundInput = {
  type: 'subscription' | 'one-time-purchase';
  id: string;
  invoiceId?: string;
  amountUsd: string;
  endAction: 'now' | 'at-period-end';
};

const kindsOf: Record<TransactionType, TransactionKindFilter[]> = {
  purchase: [{ kind: 'product', sources: ['test_mode', 'stripe'] }],
  'product-grant': [{ kind: 'product', sources: ['grant'] }],
  'manual-item-quantity-change': [{ kind: 'item_change' }],
  refund: [{ kind: 'refund' }],
};
const allKinds: TransactionKindFilter[] = [
  { kind: 'product', sources: ['grant', 'test_mode', 'stripe'] },
  { kind: 'item_change' },
  { kind: 'refund' },
];

/** Whether the product was bought at a price with an interval (a subscription). */
export const isSubscription = (product: Product, priceId: string | null): boolean =>
  product.prices !== 'include-by-default' && priceId !== null && product.prices[priceId]?.interval !== undefined;

/**
 * The admin view of payments (docs/protocol/endpoints.md §25): the transactions of the project — purchases, grants,
 * manual item changes and refunds — read newest first with a keyset cursor, and refunds of purchases,
 * each applied once.
 */
export class TransactionService {
  constructor(
    private readonly db: DbHandle,
    private readonly events: EventLog,
    private readonly stripe: StripeGateway | null,
  ) {}

  async list(
    project: Project,
    query: { cursor?: string; limit?: number; type?: TransactionType; customerType?: CustomerType; customerId?: string },
  ): Promise<{ transactions: Transaction[]; next_cursor: string | null }> {
    const limit = Math.min(200, Math.max(1, query.limit ?? 50));
    const rows = await listTransactionRows(this.db, project.id, {
      limit: limit + 1,
      kinds: query.type ? kindsOf[query.type] : allKinds,
      customerType: query.customerType,
      customerId: query.customerId,
      after: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      transactions: page.map(toTransaction),
      next_cursor: rows.length > limit && last ? encodeCursor(last) : null,
    };
  }

  /**
   * Refunds a purchase once: it ends as refunded and what it granted stops counting. A test-mode
   * purchase took no money, so it returns none (`amount_usd` "0"); any other amount is refused.
   */
  async refund(project: Project, input: RefundInput): Promise<string> {
    const notFound = () =>
      input.type === 'subscription'
        ? new SubscriptionInvoiceNotFoundError({ subscription_invoice_id: input.invoiceId ?? input.id })
        : new OneTimePurchaseNotFoundError({ one_time_purchase_id: input.id });
    const alreadyRefunded = () =>
      input.type === 'subscription'
        ? new SubscriptionAlreadyRefundedError({ subscription_id: input.id })
        : new OneTimePurchaseAlreadyRefundedError({ one_time_purchase_id: input.id });
    if (!isUuid(input.id) || (input.invoiceId !== undefined && input.invoiceId !== input.id)) throw notFound();
    // Checked before the transaction, and the money returned on Stripe before it too: no transaction (and
    // no customer lock) waits on Stripe. Checked again under the lock below.
    const found = await findCustomerProductRow(this.db, project.id, input.id);
    if (!found || found.source === 'grant') throw notFound();
    if (isSubscription(found.product as Product, found.price_id) !== (input.type === 'subscription')) throw notFound();
    if (found.refunded_at !== null) throw alreadyRefunded();
    const testMode = found.source === 'test_mode';
    let stripeRefundId: string | null = null;
    if (testMode) {
      if (Number(input.amountUsd) !== 0) throw new TestModePurchaseNonRefundableError();
      if (input.endAction === 'at-period-end')
        throw new RefundNotPossibleError(
          { reason: 'test_mode_period_end' },
          'A test-mode purchase has no billed period to end; refund it with end_action "now".',
        );
    } else {
      stripeRefundId = await this.refundOnStripe(project, found, input);
    }
    const customer = { type: found.customer_type as CustomerType, id: found.customer_id };
    return inTransaction(this.db, async (trx) => {
      await lockCustomer(trx, project.id, customer);
      const row = (await findCustomerProductRow(trx, project.id, input.id)) ?? found;
      // Refunded meanwhile (a refund that raced this one; Stripe answered both with one refund): the spec's ALREADY_REFUNDED.
      if (row.refunded_at !== null) throw alreadyRefunded();
      const id = await this.applyRefund(trx, project, row, { amount: input.amountUsd, currency: 'USD', testMode, stripeRefundId });
      if (id === null) throw alreadyRefunded();
      return id;
    });
  }

  /** Returns the money of a Stripe purchase on the project's connected account (USD purchases, up to what was paid). */
  private async refundOnStripe(project: Project, row: CustomerProductRow, input: RefundInput): Promise<string> {
    const accountId = this.stripe ? await findStripeAccountId(this.db, project.id) : undefined;
    if (!this.stripe || !accountId || !row.stripe_payment_intent_id)
      throw new RefundNotPossibleError(
        { reason: 'no_stripe_payment' },
        "This purchase has no Stripe payment to refund on the project's connected account.",
      );
    if (row.currency !== 'USD')
      throw new RefundNotPossibleError(
        { reason: 'currency_not_usd' },
        `This purchase was paid in ${row.currency}; amount_usd cannot refund it.`,
      );
    const cents = Math.round(Number(input.amountUsd) * 100);
    if (cents > Math.round(Number(row.amount ?? '0') * 100) * row.quantity)
      throw new RefundNotPossibleError(
        { reason: 'amount_above_paid' },
        `amount_usd ${input.amountUsd} is more than the purchase's ${row.amount} USD.`,
      );
    if (input.endAction === 'at-period-end')
      throw new RefundNotPossibleError(
        { reason: 'period_end_not_supported' },
        'Refunds end the purchase now; cancel the subscription to end it at the period end.',
      );
    // One refund per purchase on Stripe too: a retried or concurrent refund of it gets the first one back.
    return this.stripe.refund(accountId, row.stripe_payment_intent_id, cents, `gatehouse-refund-${row.id}`);
  }

  /**
   * Records the refund of a purchase (once) and ends it as refunded, with its `product.refunded`
   * event; answers the refund's id, or null when the purchase was refunded before.
   */
  async applyRefund(
    trx: DbHandle,
    project: Project,
    row: CustomerProductRow,
    refund: { amount: string; currency: string; testMode: boolean; stripeRefundId: string | null },
  ): Promise<string | null> {
    const now = new Date();
    const id = randomUUID();
    const refunded = await insertRefund(
      trx,
      {
        id,
        project_id: project.id,
        customer_product_id: row.id,
        customer_type: row.customer_type,
        customer_id: row.customer_id,
        amount_usd: refund.amount,
        currency: refund.currency,
        test_mode: refund.testMode,
        stripe_refund_id: refund.stripeRefundId,
        created_at: now,
      },
      now,
    );
    if (!refunded) return null;
    await this.events.record(trx, project.id, 'product.refunded', {
      id: row.id,
      customer_type: row.customer_type as CustomerType,
      customer_id: row.customer_id,
      product_id: row.product_id,
    });
    return id;
  }
}

function encodeCursor(row: TransactionRow): string {
  return Buffer.from(JSON.stringify([row.position, row.id])).toString('base64url');
}

function decodeCursor(cursor: string): { position: string; id: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (
    Array.isArray(parsed) &&
    parsed.length === 2 &&
    typeof parsed[0] === 'string' &&
    /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/.test(parsed[0]) &&
    typeof parsed[1] === 'string' &&
    isUuid(parsed[1])
  ) {
    return { position: parsed[0], id: parsed[1] };
  }
  throw new PlainHttpError(400, 'The cursor is not one this endpoint gave; start again without it.');
}

function toTransaction(row: TransactionRow): Transaction {
  const product = row.product as Product | null;
  const type: TransactionType =
    row.kind === 'item_change'
      ? 'manual-item-quantity-change'
      : row.kind === 'refund'
        ? 'refund'
        : row.source === 'grant'
          ? 'product-grant'
          : 'purchase';
  return {
    id: row.id,
    type,
    created_at_millis: row.created_at.getTime(),
    customer_type: row.customer_type as CustomerType,
    customer_id: row.customer_id,
    test_mode: row.test_mode === true,
    product_id: row.product_id,
    product_display_name: product?.displayName ?? null,
    price_id: row.price_id,
    quantity: row.quantity,
    amount: row.amount,
    currency: row.currency,
    status: row.kind === 'product' ? (row.status as Transaction['status']) : null,
    item_id: row.item_id,
    delta: row.delta === null ? null : Number(row.delta),
    description: row.description,
    refunded_transaction_id: row.refunded_id,
  };
}
