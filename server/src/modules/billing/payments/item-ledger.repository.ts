import { sql } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { CustomerProductRow, CustomerRef } from './customer-product.repository.ts';

/** Items' quantities: the customer lock, the state a quantity is computed from, and the guarded change (migration 0035). */

/** What an item's quantity is computed from: the unexpired manual changes' sum and the customer's products. */
export type ItemState = { manual: number; products: CustomerProductRow[] };

/**
 * Serialises writers of one customer (and, with `itemId`, one item of it) until the transaction
 * ends: a transaction-scoped advisory lock on a hash of the key, so concurrent decrements read the
 * quantity one after the other.
 */
export async function lockCustomer(trx: DbHandle, projectId: ProjectId, customer: CustomerRef, itemId = ''): Promise<void> {
  const key = JSON.stringify([projectId, customer.type, customer.id, itemId]);
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(kyselyOf(trx));
}

/**
 * What an item's quantity is read from, in one round trip: the customer's manual changes of the item
 * that count at `now` (the running total of those that never expire plus the unexpired ones that
 * do) and the customer's products, oldest first (as `listCustomerProductRows`). The read of every
 * get-item; it does not grow with the ledger's entries that never expire. With `confirmUserId`, the
 * same statement says whether that user of the project exists (`userExists`): get-item confirms an
 * access token's user there instead of authentication reading it first.
 */
export async function readItemState(
  db: DbHandle,
  projectId: ProjectId,
  customer: CustomerRef,
  itemId: string,
  now: Date,
  confirmUserId?: string,
): Promise<ItemState & { userExists?: boolean }> {
  const userExists =
    confirmUserId === undefined
      ? sql``
      : sql`exists(select 1 from project_user u where u.project_id = ${projectId} and u.id = ${confirmUserId}) as gatehouse_user_exists,`;
  const { rows } = await sql<CustomerProductRow & { gatehouse_manual_total: string | null; gatehouse_user_exists?: boolean }>`
    select ${userExists}
      coalesce((select t.total from payment_item_total t
          where t.project_id = ${projectId} and t.customer_type = ${customer.type} and t.customer_id = ${customer.id}
            and t.item_id = ${itemId}), 0)
        + coalesce((select sum(c.delta) from payment_item_change c
          where c.project_id = ${projectId} and c.customer_type = ${customer.type} and c.customer_id = ${customer.id}
            and c.item_id = ${itemId} and c.expires_at is not null and c.expires_at > ${now}::timestamptz), 0) as gatehouse_manual_total,
      p.*
    from (select 1) as anchor
    left join payment_customer_product p
      on p.project_id = ${projectId} and p.customer_type = ${customer.type} and p.customer_id = ${customer.id}
    order by p.created_at, p.id`.execute(kyselyOf(db));
  const manual = Number(rows[0]?.gatehouse_manual_total ?? 0);
  const products = rows
    .filter((row) => row.id !== null)
    .map(({ gatehouse_manual_total: _, gatehouse_user_exists: __, ...row }) => row as CustomerProductRow);
  return confirmUserId === undefined ? { manual, products } : { manual, products, userExists: rows[0]?.gatehouse_user_exists === true };
}

/** The customer's product rows as of one moment, and the stamp `applyItemChange` compares (see migration 0035). */
export type ProductsSnapshot = { stamp: string; rows: CustomerProductRow[] };

/** What `applyItemChange` did: changed, refused (the quantity before was `prior`), nothing because the products moved on (`current`), or nothing because the customer does not exist (migration 0250). */
export type ItemChangeOutcome =
  | { outcome: 'changed'; prior: number | null }
  | { outcome: 'insufficient'; prior: number }
  | { outcome: 'out_of_range'; prior: number }
  | { outcome: 'stale'; current: ProductsSnapshot }
  | { outcome: 'no_customer' };

/**
 * A ledger entry in one round trip (`payment_item_change_apply`, migrations 0035, 0076, 0250): a change for a
 * user or team the project does not have changes nothing (`no_customer`); under the customer
 * item's advisory lock, a checked change is refused when the manual quantity plus `granted` (what
 * the products of `productsStamp` grant at `now`) plus the delta would be below zero; otherwise the
 * entry, the running total of entries that never expire, and the event go in. When the customer's
 * products are not those of `productsStamp` it changes nothing and answers them.
 */
export async function applyItemChange(
  db: DbHandle,
  row: {
    id: string;
    project_id: ProjectId;
    customer_type: string;
    customer_id: string;
    item_id: string;
    delta: number;
    expires_at: Date | null;
    description: string | null;
  },
  check: { now: Date; checked: boolean; granted: number; productsStamp: string | null },
  event: { data: unknown },
): Promise<ItemChangeOutcome> {
  const lockKey = JSON.stringify([row.project_id, row.customer_type, row.customer_id, row.item_id]);
  const { rows } = await sql<{ outcome: string; prior: string | null; products_stamp: string | null; products: unknown[] | null }>`
    select * from payment_item_change_apply(${lockKey}, ${row.id}::uuid, ${row.project_id}, ${row.customer_type}, ${row.customer_id},
      ${row.item_id}, ${row.delta}::bigint, ${row.expires_at}::timestamptz, ${row.description}::text, ${check.now}::timestamptz,
      ${check.checked}, ${check.granted}::bigint, ${check.productsStamp}::text, ${JSON.stringify(event.data)}::jsonb)`.execute(
    kyselyOf(db),
  );
  const [result] = rows;
  if (!result) throw new Error('payment_item_change_apply answered no row');
  if (result.outcome === 'stale')
    return {
      outcome: 'stale',
      current: { stamp: result.products_stamp ?? '', rows: (result.products ?? []).map((product) => productRowOfJson(product)) },
    };
  if (result.outcome === 'no_customer') return { outcome: 'no_customer' };
  if (result.outcome === 'insufficient') return { outcome: 'insufficient', prior: Number(result.prior) };
  if (result.outcome === 'out_of_range') return { outcome: 'out_of_range', prior: Number(result.prior) };
  return { outcome: 'changed', prior: result.prior === null ? null : Number(result.prior) };
}

/** A product row as `to_jsonb` renders it: its timestamps back to dates. */
function productRowOfJson(json: unknown): CustomerProductRow {
  const row = json as Record<string, unknown>;
  const date = (value: unknown) => (typeof value === 'string' ? new Date(value) : null);
  return {
    ...(row as unknown as CustomerProductRow),
    created_at: date(row.created_at) as Date,
    ended_at: date(row.ended_at),
    refunded_at: date(row.refunded_at),
    current_period_end: date(row.current_period_end),
  };
}
