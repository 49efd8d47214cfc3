import type { OperationBody, OperationResult, Schema } from '@gatehouse/protocol/operation-types';
import { type AppCall, definedOnly } from './app-call.ts';
import * as op from '@gatehouse/protocol/operations';

type CustomerType = 'user' | 'team' | 'custom';
type IntervalUnit = 'day' | 'week' | 'month' | 'year';
/** `[count, unit]`, e.g. `[1, 'month']`. */
export type DayInterval = [number, IntervalUnit];
type Currency = 'USD' | 'EUR' | 'GBP' | 'CAD' | 'AUD' | 'CHF' | 'INR' | 'JPY';

/** An item of the catalogue (config `payments.items.<id>`). */
export type CatalogueItem = { displayName?: string; customerType: CustomerType };
/** A product line (config `payments.productLines.<id>`): its products exclude each other unless one is an add-on to the other. */
export type CatalogueProductLine = { displayName?: string; customerType?: CustomerType };
/** A price: money strings per currency (`'9.99'`), one-time without `interval`. */
export type CataloguePrice = Partial<Record<Currency, string>> & { interval?: DayInterval; freeTrial?: DayInterval; serverOnly?: boolean };
/** A product (config `payments.products.<id>`). */
export type CatalogueProduct = {
  displayName?: string;
  customerType: CustomerType;
  productLineId?: string;
  isAddOnTo?: false | Record<string, true>;
  freeTrial?: DayInterval;
  serverOnly?: boolean;
  stackable?: boolean;
  prices: Record<string, CataloguePrice> | 'include-by-default';
  includedItems?: Record<
    string,
    { quantity: number; repeat?: DayInterval | 'never'; expires?: 'never' | 'when-purchase-expires' | 'when-repeated' }
  >;
  clientMetadata?: unknown;
  clientReadOnlyMetadata?: unknown;
  serverMetadata?: unknown;
};

export type PaymentTransaction = Schema<'Transaction'>;
export type PaymentTransactionType = Schema<'TransactionType'>;
type RefundBody = OperationBody<'createPaymentRefund'>;

type CatalogueSection<Entry> = {
  /** Every entry, by id, as the rendered config has it. */
  list(): Promise<Record<string, Entry>>;
  /** Creates or replaces the entry; a catalogue rule it breaks is a plain 400 naming the field (the seed's messages). */
  set(id: string, entry: Entry): Promise<void>;
  /** Removes the entry (read, then the section written without it); refused (plain 400) while the catalogue still needs it. */
  remove(id: string): Promise<void>;
};

export type PaymentMethodConfigs = OperationResult<'getPaymentMethodConfigs'>;

/** The payments catalogue in the project's config, the project's transactions and refunds (admin app). */
export type AdminPayments = {
  /** Stripe mode: the payment methods the checkout offers (StripeAccountInfoNotFoundError without a connected account). */
  getMethodConfigs(): Promise<PaymentMethodConfigs>;
  /** Stripe mode: turns payment methods on or off on the configuration `getMethodConfigs` answered. */
  updateMethodConfigs(configId: string, updates: Record<string, 'on' | 'off'>): Promise<void>;
  items: CatalogueSection<CatalogueItem>;
  productLines: CatalogueSection<CatalogueProductLine>;
  products: CatalogueSection<CatalogueProduct>;
  /** Test mode (no Stripe; the default) and whether new purchases are blocked. */
  setSettings(settings: { testMode?: boolean; blockNewPurchases?: boolean }): Promise<void>;
  /** Purchases, grants, item changes and refunds, newest first, one page; pass `nextCursor` back for the next one. */
  listTransactions(options?: {
    cursor?: string;
    limit?: number;
    type?: PaymentTransactionType;
    customerType?: CustomerType;
    customerId?: string;
  }): Promise<{ transactions: PaymentTransaction[]; nextCursor: string | null }>;
  /**
   * Refunds a purchase once (Stripe: the amount on the connected account; test mode: amount `'0'`, reversing its grants).
   * OneTimePurchaseNotFoundError / SubscriptionInvoiceNotFoundError, *AlreadyRefundedError, TestModePurchaseNonRefundableError.
   */
  refundTransaction(refund: {
    type: RefundBody['type'];
    id: string;
    amountUsd: string;
    invoiceId?: string;
    endAction?: RefundBody['end_action'];
  }): Promise<{ refundTransactionId: string }>;
};

type Section = 'items' | 'productLines' | 'products';

export function adminPayments(call: AppCall): AdminPayments {
  const override = async (entries: Record<string, unknown>) => {
    await call(op.updateProjectConfigOverride, {
      params: { level: 'project' },
      body: { config_override_string: JSON.stringify(entries) },
    });
  };
  const rendered = async (section: Section): Promise<Record<string, unknown>> => {
    const config = JSON.parse((await call(op.getProjectConfig)).config_string) as { payments: Record<Section, Record<string, unknown>> };
    return config.payments[section];
  };
  const section = <Entry>(name: Section): CatalogueSection<Entry> => ({
    list: async () => (await rendered(name)) as Record<string, Entry>,
    set: (id, entry) => override({ [`payments.${name}.${id}`]: entry }),
    remove: async (id) => {
      const { [id]: _removed, ...rest } = await rendered(name);
      await override({ [`payments.${name}`]: rest });
    },
  });
  return {
    getMethodConfigs: () => call(op.getPaymentMethodConfigs),
    updateMethodConfigs: async (configId, updates) => {
      await call(op.updatePaymentMethodConfigs, { body: { config_id: configId, updates } });
    },
    items: section<CatalogueItem>('items'),
    productLines: section<CatalogueProductLine>('productLines'),
    products: section<CatalogueProduct>('products'),
    setSettings: (settings) =>
      override(
        definedOnly({ 'payments.testMode': settings.testMode, 'payments.blockNewPurchases': settings.blockNewPurchases }) as Record<
          string,
          unknown
        >,
      ),
    listTransactions: async (options = {}) => {
      const page = await call(op.listPaymentTransactions, {
        query: definedOnly({
          cursor: options.cursor,
          limit: options.limit === undefined ? undefined : String(options.limit),
          type: options.type,
          customer_type: options.customerType,
          customer_id: options.customerId,
        }),
      });
      return { transactions: page.transactions, nextCursor: page.next_cursor };
    },
    refundTransaction: async (refund) => {
      const answer = await call(op.createPaymentRefund, {
        body: definedOnly({
          type: refund.type,
          id: refund.id,
          amount_usd: refund.amountUsd,
          invoice_id: refund.invoiceId,
          end_action: refund.endAction,
        }),
      });
      return { refundTransactionId: answer.refund_transaction_id };
    },
  };
}
