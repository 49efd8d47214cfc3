import { ProductAlreadyGrantedError, ProductCustomerTypeDoesNotMatchError } from '@gatehouse/protocol/errors';
import { conflictsOf, type Product } from './catalogue.ts';
import type { CustomerProductRow } from './customer-product.repository.ts';
import type { Customer } from './customer.ts';

/** The checks before a customer gets a product: its type, and a non-stackable one owned already. */
export function assertCanOwn(customer: Customer, productId: string | null, product: Product, owned: readonly CustomerProductRow[]): void {
  if (product.customerType !== customer.type) {
    throw new ProductCustomerTypeDoesNotMatchError({
      product_id: productId,
      customer_id: customer.id,
      product_customer_type: product.customerType,
      actual_customer_type: customer.type,
    } as never);
  }
  if (productId !== null && !product.stackable && owned.some((row) => row.status === 'active' && row.product_id === productId)) {
    throw new ProductAlreadyGrantedError({ product_id: productId, customer_id: customer.id });
  }
}

/** The products of the same line the customer owns that the product would exclude. */
export function conflictsFor(product: Product, owned: readonly CustomerProductRow[]): CustomerProductRow[] {
  const active = owned.filter((row) => row.status === 'active' && row.product_id !== null);
  const conflicting = new Set(
    conflictsOf(
      product,
      active.map((row) => row.product as Product),
    ).map((other) => other.id),
  );
  return active.filter((row) => conflicting.has((row.product as Product).id));
}
