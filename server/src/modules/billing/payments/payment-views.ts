import type { components } from '@gatehouse/protocol/api-types';
import type { Product } from './catalogue.ts';
import type { CustomerProductRow } from './customer-product.repository.ts';

type InlineProduct = components['schemas']['InlineProduct'];
type CustomerProduct = components['schemas']['CustomerProduct'];
export type Audience = 'client' | 'server';

/** A product in the API's snake_case shape; clients never see `server_metadata` or server-only prices. */
export function toInlineProduct(product: Product, audience: Audience): InlineProduct {
  const prices =
    product.prices === 'include-by-default'
      ? ('include-by-default' as const)
      : Object.fromEntries(
          Object.entries(product.prices)
            .filter(([, price]) => audience === 'server' || !price.serverOnly)
            .map(([id, price]) => [
              id,
              {
                ...price.amounts,
                ...(price.interval ? { interval: price.interval } : {}),
                ...(price.freeTrial ? { free_trial: price.freeTrial } : {}),
                ...(audience === 'server' ? { server_only: price.serverOnly } : {}),
              },
            ]),
        );
  return {
    display_name: product.displayName,
    customer_type: product.customerType,
    ...(product.freeTrial ? { free_trial: product.freeTrial } : {}),
    server_only: product.serverOnly,
    stackable: product.stackable,
    prices,
    included_items: Object.fromEntries(
      Object.entries(product.includedItems).map(([id, included]) => [
        id,
        { quantity: included.quantity, repeat: included.repeat, expires: included.expires },
      ]),
    ),
    client_metadata: product.clientMetadata,
    client_read_only_metadata: product.clientReadOnlyMetadata,
    ...(audience === 'server' ? { server_metadata: product.serverMetadata } : {}),
  } as InlineProduct;
}

const hasInterval = (product: Product, priceId: string | null): boolean =>
  product.prices !== 'include-by-default' && priceId !== null && product.prices[priceId]?.interval !== undefined;

/** An owned product (a row) as the list shows it. */
export function toCustomerProduct(
  row: CustomerProductRow,
  audience: Audience,
  switchOptions: CustomerProduct['switch_options'],
): CustomerProduct {
  const product = row.product as Product;
  return {
    id: row.product_id,
    quantity: row.quantity,
    product: toInlineProduct(product, audience),
    type: hasInterval(product, row.price_id) ? 'subscription' : 'one_time',
    subscription: {
      subscription_id: row.id,
      current_period_end: row.current_period_end?.toISOString() ?? null,
      cancel_at_period_end: row.cancel_at_period_end,
      is_cancelable: true,
    },
    switch_options: switchOptions,
  };
}

/** A product every customer of its type has by default (no row: nothing to cancel). */
export function toDefaultCustomerProduct(product: Product, audience: Audience): CustomerProduct {
  return {
    id: product.id,
    quantity: 1,
    product: toInlineProduct(product, audience),
    type: 'one_time',
    subscription: null,
    switch_options: [],
  };
}
