import type { ColumnType, Generated } from 'kysely';
import type { JsonColumn } from '../../../db/column-types.ts';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** A manual change of a customer's item quantity (`update-quantity`); counts until `expires_at`. */
export interface PaymentItemChangeTable {
  id: string;
  project_id: ProjectIdColumn;
  customer_type: string;
  customer_id: string;
  item_id: string;
  delta: ColumnType<string, number, number>;
  expires_at: Date | null;
  description: string | null;
  created_at: Generated<Date>;
}

/** Per customer item, the sum of its ledger entries that never expire (kept by `payment_item_change_apply`, migration 0035). */
export interface PaymentItemTotalTable {
  project_id: ProjectIdColumn;
  customer_type: string;
  customer_id: string;
  item_id: string;
  total: ColumnType<string, number, number>;
}

/**
 * A product a customer owns or owned: `product` is the catalogue entry as it was when granted or
 * bought (an inline grant has no `product_id`); `source` grant / test_mode / stripe; `status`
 * active / canceled / refunded. These rows are also the transactions of the admin API.
 */
export interface PaymentCustomerProductTable {
  id: string;
  project_id: ProjectIdColumn;
  customer_type: string;
  customer_id: string;
  product_id: string | null;
  product: JsonColumn;
  price_id: string | null;
  quantity: number;
  source: string;
  status: string;
  amount: string | null;
  currency: string | null;
  stripe_subscription_id: string | null;
  stripe_payment_intent_id: string | null;
  current_period_end: Date | null;
  cancel_at_period_end: Generated<boolean>;
  created_at: Generated<Date>;
  ended_at: Date | null;
  refunded_at: Date | null;
}

/** A purchase the hosted checkout page offers (create-purchase-url): the code as a digest. */
export interface PaymentPurchaseCodeTable {
  id: string;
  project_id: ProjectIdColumn;
  code_hash: string;
  customer_type: string;
  customer_id: string;
  product_id: string | null;
  product: JsonColumn;
  return_url: string | null;
  created_at: Generated<Date>;
  expires_at: Date;
  used_at: Date | null;
}

/** The refund of a purchase (one per purchase): the amount returned, in USD. */
export interface PaymentRefundTable {
  id: string;
  project_id: ProjectIdColumn;
  customer_product_id: string;
  customer_type: string;
  customer_id: string;
  amount_usd: string;
  test_mode: boolean;
  stripe_refund_id: string | null;
  currency: Generated<string>;
  created_at: Generated<Date>;
}

/** The project's connected Stripe account (Stripe mode). */
export interface PaymentStripeAccountTable {
  project_id: ProjectIdColumn;
  account_id: string;
  created_at: Generated<Date>;
}

/** A Stripe event the webhook took (once per event id), and whether it changed anything. */
export interface PaymentStripeEventTable {
  event_id: string;
  project_id: ProjectIdColumn;
  type: string;
  applied: boolean;
  received_at: Generated<Date>;
}

/** A customer's Stripe customer on the project's connected account, with its default payment method (a summary). */
export interface PaymentStripeCustomerTable {
  project_id: ProjectIdColumn;
  customer_type: string;
  customer_id: string;
  stripe_customer_id: string;
  default_payment_method: JsonColumn | null;
  created_at: Generated<Date>;
}

/** The Stripe product a catalogue product is sold as on the connected account (key: product id, or a digest of an inline product). */
export interface PaymentStripeProductTable {
  project_id: ProjectIdColumn;
  product_key: string;
  stripe_product_id: string;
}

declare module '../../../db/schema.ts' {
  interface Database {
    payment_refund: PaymentRefundTable;
    payment_stripe_account: PaymentStripeAccountTable;
    payment_stripe_event: PaymentStripeEventTable;
    payment_stripe_customer: PaymentStripeCustomerTable;
    payment_stripe_product: PaymentStripeProductTable;
    payment_purchase_code: PaymentPurchaseCodeTable;
    payment_item_change: PaymentItemChangeTable;
    payment_item_total: PaymentItemTotalTable;
    payment_customer_product: PaymentCustomerProductTable;
  }
}
