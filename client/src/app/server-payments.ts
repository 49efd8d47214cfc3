import type { Schema } from '@gatehouse/protocol/operation-types';
import { ItemQuantityInsufficientAmountError } from '../errors.ts';
import { type AppCall, definedOnly } from './app-call.ts';
import * as op from '@gatehouse/protocol/operations';

export type PaymentCustomer = { type: 'user' | 'team' | 'custom'; id: string };
export type PaymentItem = Schema<'Item'>;
export type CustomerProduct = Schema<'CustomerProduct'>;
type QuantityOptions = { expiresAt?: Date; description?: string };

/** Payments of any customer (server and admin apps): items, products, purchase URLs. */
export type ServerPayments = {
  /** The customer's quantity of an item (unexpired changes plus what its products grant). */
  getItem(customer: PaymentCustomer, itemId: string): Promise<PaymentItem>;
  /** Adds `amount` (a ledger entry; counts until `expiresAt` when given). */
  increaseQuantity(customer: PaymentCustomer, itemId: string, amount: number, options?: QuantityOptions): Promise<void>;
  /** Takes `amount` away when that many are left: false (and nothing changed) when not. Atomic under concurrency. */
  tryDecreaseQuantity(customer: PaymentCustomer, itemId: string, amount: number, options?: QuantityOptions): Promise<boolean>;
  /** Takes `amount` away even below zero. */
  decreaseQuantity(customer: PaymentCustomer, itemId: string, amount: number, options?: QuantityOptions): Promise<void>;
  /** The products the customer has (defaults included), one page. */
  listProducts(
    customer: PaymentCustomer,
    options?: { cursor?: string; limit?: number },
  ): Promise<{ items: CustomerProduct[]; nextCursor: string | null }>;
  /** Grants a catalogue product with no payment; answers the ownership id (`subscription_id`). */
  grantProduct(customer: PaymentCustomer, productId: string, options?: { quantity?: number }): Promise<string>;
  cancelProduct(customer: PaymentCustomer, productId: string, options?: { subscriptionId?: string }): Promise<void>;
  /** The URL of the hosted checkout page for the customer and product. */
  createCheckoutUrl(customer: PaymentCustomer, productId: string, options?: { returnUrl?: string }): Promise<string>;
};

const customerParams = (customer: PaymentCustomer) => ({ customer_type: customer.type, customer_id: customer.id });

export function serverPayments(call: AppCall): ServerPayments {
  const change = (customer: PaymentCustomer, itemId: string, delta: number, allowNegative: boolean, options: QuantityOptions = {}) =>
    call(op.updateCustomerItemQuantity, {
      params: { ...customerParams(customer), item_id: itemId },
      query: { allow_negative: allowNegative ? 'true' : 'false' },
      body: definedOnly({ delta, expires_at: options.expiresAt?.toISOString(), description: options.description }),
    });
  return {
    getItem: (customer, itemId) => call(op.getCustomerItem, { params: { ...customerParams(customer), item_id: itemId } }),
    increaseQuantity: async (customer, itemId, amount, options) => {
      await change(customer, itemId, amount, false, options);
    },
    tryDecreaseQuantity: async (customer, itemId, amount, options) => {
      try {
        await change(customer, itemId, -amount, false, options);
        return true;
      } catch (error) {
        if (error instanceof ItemQuantityInsufficientAmountError) return false;
        throw error;
      }
    },
    decreaseQuantity: async (customer, itemId, amount, options) => {
      await change(customer, itemId, -amount, true, options);
    },
    listProducts: async (customer, options = {}) => {
      const page = await call(op.listCustomerProducts, {
        params: customerParams(customer),
        query: definedOnly({ cursor: options.cursor, limit: options.limit === undefined ? undefined : String(options.limit) }),
      });
      return { items: page.items, nextCursor: page.pagination.next_cursor };
    },
    grantProduct: async (customer, productId, options = {}) => {
      const granted = await call(op.grantCustomerProduct, {
        params: customerParams(customer),
        body: definedOnly({ product_id: productId, quantity: options.quantity }),
      });
      return granted.subscription_id as string;
    },
    cancelProduct: async (customer, productId, options = {}) => {
      await call(op.cancelCustomerProduct, {
        params: { ...customerParams(customer), product_id: productId },
        query: definedOnly({ subscription_id: options.subscriptionId }),
      });
    },
    createCheckoutUrl: async (customer, productId, options = {}) =>
      (
        await call(op.createPurchaseUrl, {
          body: definedOnly({ ...customerParams(customer), product_id: productId, return_url: options.returnUrl }),
        })
      ).url,
  };
}
