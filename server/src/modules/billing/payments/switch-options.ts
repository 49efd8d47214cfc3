import type { components } from '@gatehouse/protocol/api-types';
import type { Catalogue, Product } from './catalogue.ts';
import type { CustomerProductRow } from './customer-product.repository.ts';
import { type Audience, toInlineProduct } from './payment-views.ts';

type CustomerProduct = components['schemas']['CustomerProduct'];

/** The products of its line an owned product can be switched to (for this caller: server-only ones are the server's). */
export function switchOptionsOf(catalogue: Catalogue, row: CustomerProductRow, audience: Audience): CustomerProduct['switch_options'] {
  const product = row.product as Product;
  if (!row.product_id || !product.productLineId) return [];
  return [...catalogue.products.values()]
    .filter(
      (other) =>
        other.id !== row.product_id &&
        other.productLineId === product.productLineId &&
        other.prices !== 'include-by-default' &&
        (audience === 'server' || !other.serverOnly),
    )
    .map((other) => ({ product_id: other.id, product: toInlineProduct(other, audience) }));
}
