import { type Insertable, type Selectable, sql } from 'kysely';
import { type DbHandle, kyselyOf } from '../../db/handle.ts';
import type { ProjectId } from '../../tenancy/project-id.ts';
import type { PaymentCustomerProductTable, PaymentItemChangeTable, PaymentPurchaseCodeTable } from './payment.table.ts';

export type CustomerRef = { type: string; id: string };
export type CustomerProductRow = Selectable<PaymentCustomerProductTable>;

/**
 * Serialises writers of one customer (and, with `itemId`, one item of it) until the transaction
 * ends: a transaction-scoped advisory lock on a hash of the key, so concurrent decrements read the
 * quantity one after the other.
 */
export async function lockCustomer(trx: DbHandle, projectId: ProjectId, customer: CustomerRef, itemId = ''): Promise<void> {
  const key = JSON.stringify([projectId, customer.type, customer.id, itemId]);
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(kyselyOf(trx));
}

/** The sum of the customer's manual changes of an item that have not expired at `now`. */
export async function sumItemChanges(
  db: DbHandle,
  projectId: ProjectId,
  customer: CustomerRef,
  itemId: string,
  now: Date,
): Promise<number> {
  const row = await kyselyOf(db)
    .selectFrom('payment_item_change')
    .select(sql<string | null>`sum(delta)`.as('total'))
    .where('project_id', '=', projectId)
    .where('customer_type', '=', customer.type)
    .where('customer_id', '=', customer.id)
    .where('item_id', '=', itemId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

export async function insertItemChange(db: DbHandle, row: Insertable<PaymentItemChangeTable>): Promise<void> {
  await kyselyOf(db).insertInto('payment_item_change').values(row).execute();
}

/** The customer's products, oldest first (every status). */
export function listCustomerProductRows(db: DbHandle, projectId: ProjectId, customer: CustomerRef): Promise<CustomerProductRow[]> {
  return kyselyOf(db)
    .selectFrom('payment_customer_product')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('customer_type', '=', customer.type)
    .where('customer_id', '=', customer.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function insertCustomerProduct(db: DbHandle, row: Insertable<PaymentCustomerProductTable>): Promise<void> {
  await kyselyOf(db).insertInto('payment_customer_product').values(row).execute();
}

export function findCustomerProductRow(db: DbHandle, projectId: ProjectId, id: string): Promise<CustomerProductRow | undefined> {
  return kyselyOf(db)
    .selectFrom('payment_customer_product')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Ends an active product (canceled or refunded); false when it was not active. */
export async function endCustomerProduct(
  db: DbHandle,
  projectId: ProjectId,
  id: string,
  status: 'canceled' | 'refunded',
  now: Date,
): Promise<boolean> {
  const result = await kyselyOf(db)
    .updateTable('payment_customer_product')
    .set(status === 'refunded' ? { status, ended_at: now, refunded_at: now } : { status, ended_at: now })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A page of the project's products (the transactions), newest first, after the `before` key. */
export function listProductRowsPage(
  db: DbHandle,
  projectId: ProjectId,
  filter: { limit: number; before?: { created_at: Date; id: string }; customerType?: string; customerId?: string; source?: string },
): Promise<CustomerProductRow[]> {
  let query = kyselyOf(db).selectFrom('payment_customer_product').selectAll().where('project_id', '=', projectId);
  if (filter.customerType) query = query.where('customer_type', '=', filter.customerType);
  if (filter.customerId) query = query.where('customer_id', '=', filter.customerId);
  if (filter.source) query = query.where('source', '=', filter.source);
  const before = filter.before;
  if (before) {
    query = query.where((eb) =>
      eb.or([eb('created_at', '<', before.created_at), eb.and([eb('created_at', '=', before.created_at), eb('id', '<', before.id)])]),
    );
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}

export type PurchaseCodeRow = Selectable<PaymentPurchaseCodeTable>;

export async function insertPurchaseCode(db: DbHandle, row: Insertable<PaymentPurchaseCodeTable>): Promise<void> {
  await kyselyOf(db).insertInto('payment_purchase_code').values(row).execute();
}

export function findPurchaseCode(db: DbHandle, projectId: ProjectId, codeHash: string): Promise<PurchaseCodeRow | undefined> {
  return kyselyOf(db)
    .selectFrom('payment_purchase_code')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('code_hash', '=', codeHash)
    .executeTakeFirst();
}

/** Marks an unused, unexpired code used; false when another purchase used it first (or it expired). */
export async function usePurchaseCode(db: DbHandle, projectId: ProjectId, id: string, now: Date): Promise<boolean> {
  const result = await kyselyOf(db)
    .updateTable('payment_purchase_code')
    .set({ used_at: now })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
