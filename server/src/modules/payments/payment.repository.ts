import { type Insertable, type Selectable, sql } from 'kysely';
import { type DbHandle, kyselyOf } from '../../db/handle.ts';
import type { ProjectId } from '../../tenancy/project-id.ts';
import type {
  PaymentCustomerProductTable,
  PaymentPurchaseCodeTable,
  PaymentRefundTable,
  PaymentStripeCustomerTable,
} from './payment.table.ts';

export type CustomerRef = { type: string; id: string };
export type CustomerProductRow = Selectable<PaymentCustomerProductTable>;
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
 * get-item; it does not grow with the ledger's entries that never expire.
 */
export async function readItemState(
  db: DbHandle,
  projectId: ProjectId,
  customer: CustomerRef,
  itemId: string,
  now: Date,
): Promise<ItemState> {
  const { rows } = await sql<CustomerProductRow & { gatehouse_manual_total: string | null }>`
    select
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
  const products = rows.filter((row) => row.id !== null).map(({ gatehouse_manual_total: _, ...row }) => row as CustomerProductRow);
  return { manual, products };
}

/** The customer's product rows as of one moment, and the stamp `applyItemChange` compares (see migration 0035). */
export type ProductsSnapshot = { stamp: string; rows: CustomerProductRow[] };

/** What `applyItemChange` did: changed, refused (the quantity before was `prior`), or nothing because the products moved on (`current`). */
export type ItemChangeOutcome =
  | { outcome: 'changed'; prior: number | null }
  | { outcome: 'insufficient'; prior: number }
  | { outcome: 'out_of_range'; prior: number }
  | { outcome: 'stale'; current: ProductsSnapshot };

/**
 * A ledger entry in one round trip (`payment_item_change_apply`, migration 0035): under the customer
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

/**
 * Records the refund of a purchase and ends it as refunded (also when it had ended already); false
 * when the purchase was refunded before (the unique purchase id settles a race: the later insert waits
 * for the earlier transaction and then finds the conflict).
 */
export async function insertRefund(db: DbHandle, row: Insertable<PaymentRefundTable>, now: Date): Promise<boolean> {
  const inserted = await kyselyOf(db)
    .insertInto('payment_refund')
    .values(row)
    .onConflict((conflict) => conflict.column('customer_product_id').doNothing())
    .executeTakeFirst();
  if ((inserted.numInsertedOrUpdatedRows ?? 0n) === 0n) return false;
  await kyselyOf(db)
    .updateTable('payment_customer_product')
    .set((eb) => ({ status: 'refunded', refunded_at: now, ended_at: eb.fn.coalesce('ended_at', sql<Date>`${now}`) }))
    .where('project_id', '=', row.project_id as ProjectId)
    .where('id', '=', row.customer_product_id)
    .execute();
  return true;
}

/** A transaction as the union of purchases/grants, item changes and refunds reads it (see listTransactionRows). */
export type TransactionRow = {
  kind: 'product' | 'item_change' | 'refund';
  id: string;
  created_at: Date;
  position: string;
  customer_type: string;
  customer_id: string;
  source: string | null;
  product_id: string | null;
  product: unknown;
  price_id: string | null;
  quantity: number | null;
  amount: string | null;
  currency: string | null;
  status: string | null;
  item_id: string | null;
  delta: string | null;
  description: string | null;
  test_mode: boolean | null;
  refunded_id: string | null;
};

/** Which rows a transaction type reads: the table, and for products the sources. */
export type TransactionKindFilter = { kind: TransactionRow['kind']; sources?: readonly string[] };

/**
 * A page of the project's transactions, newest first by (created_at, id), strictly after the keyset
 * `after` (`position` is the row's created_at as Postgres prints it, exact to the microsecond).
 */
export async function listTransactionRows(
  db: DbHandle,
  projectId: ProjectId,
  filter: {
    limit: number;
    kinds: readonly TransactionKindFilter[];
    customerType?: string;
    customerId?: string;
    after?: { position: string; id: string };
  },
): Promise<TransactionRow[]> {
  const customer = (alias: string) =>
    sql.join(
      [
        sql`${sql.ref(`${alias}.project_id`)} = ${projectId}`,
        ...(filter.customerType ? [sql`${sql.ref(`${alias}.customer_type`)} = ${filter.customerType}`] : []),
        ...(filter.customerId ? [sql`${sql.ref(`${alias}.customer_id`)} = ${filter.customerId}`] : []),
        ...(filter.after
          ? [
              sql`(${sql.ref(`${alias}.created_at`)} < ${filter.after.position}::timestamptz or (${sql.ref(`${alias}.created_at`)} = ${filter.after.position}::timestamptz and ${sql.ref(`${alias}.id`)}::text collate "C" < ${filter.after.id}))`,
            ]
          : []),
      ],
      sql` and `,
    );
  const parts = filter.kinds.map((kind) => {
    if (kind.kind === 'product') {
      const sources = kind.sources ?? [];
      return sql`select 'product' as kind, p.id::text as id, p.created_at, p.customer_type, p.customer_id, p.source, p.product_id,
          p.product, p.price_id, p.quantity, p.amount, p.currency, p.status, null::text as item_id, null::bigint as delta,
          null::text as description, (p.source = 'test_mode') as test_mode, null::text as refunded_id
        from payment_customer_product p where ${customer('p')} and p.source in (${sql.join(sources)})
        order by p.created_at desc, p.id::text collate "C" desc limit ${filter.limit}`;
    }
    if (kind.kind === 'item_change') {
      return sql`select 'item_change' as kind, c.id::text as id, c.created_at, c.customer_type, c.customer_id, null::text as source,
          null::text as product_id, null::jsonb as product, null::text as price_id, null::integer as quantity, null::text as amount,
          null::text as currency, null::text as status, c.item_id, c.delta, c.description, null::boolean as test_mode,
          null::text as refunded_id
        from payment_item_change c where ${customer('c')}
        order by c.created_at desc, c.id::text collate "C" desc limit ${filter.limit}`;
    }
    return sql`select 'refund' as kind, r.id::text as id, r.created_at, r.customer_type, r.customer_id, null::text as source,
        p.product_id, p.product, p.price_id, p.quantity, r.amount_usd as amount, r.currency, null::text as status,
        null::text as item_id, null::bigint as delta, null::text as description, r.test_mode,
        r.customer_product_id::text as refunded_id
      from payment_refund r join payment_customer_product p on p.id = r.customer_product_id where ${customer('r')}
      order by r.created_at desc, r.id::text collate "C" desc limit ${filter.limit}`;
  });
  if (parts.length === 0) return [];
  const union = sql.join(
    parts.map((part) => sql`(${part})`),
    sql` union all `,
  );
  const result = await sql<TransactionRow>`select t.*, t.created_at::text as position from (${union}) t
    order by t.created_at desc, t.id collate "C" desc limit ${filter.limit}`.execute(kyselyOf(db));
  return result.rows;
}

export async function findStripeAccountId(db: DbHandle, projectId: ProjectId): Promise<string | undefined> {
  const row = await kyselyOf(db)
    .selectFrom('payment_stripe_account')
    .select('account_id')
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row?.account_id;
}

/** Keeps the project's connected account (the first one wins when two setups race); answers the kept id. */
export async function saveStripeAccountId(db: DbHandle, projectId: ProjectId, accountId: string): Promise<string> {
  await kyselyOf(db)
    .insertInto('payment_stripe_account')
    .values({ project_id: projectId, account_id: accountId })
    .onConflict((conflict) => conflict.column('project_id').doNothing())
    .execute();
  return (await findStripeAccountId(db, projectId)) ?? accountId;
}

/** Takes a Stripe event id once: false when it was taken before (a replay), also under a race. */
export async function takeStripeEvent(db: DbHandle, projectId: ProjectId, eventId: string, type: string): Promise<boolean> {
  const result = await kyselyOf(db)
    .insertInto('payment_stripe_event')
    .values({ event_id: eventId, project_id: projectId, type, applied: false })
    .onConflict((conflict) => conflict.column('event_id').doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export async function markStripeEventApplied(db: DbHandle, projectId: ProjectId, eventId: string): Promise<void> {
  await kyselyOf(db)
    .updateTable('payment_stripe_event')
    .set({ applied: true })
    .where('project_id', '=', projectId)
    .where('event_id', '=', eventId)
    .execute();
}

/** The product bought through a Stripe subscription or payment intent. */
export function findProductRowByStripeId(
  db: DbHandle,
  projectId: ProjectId,
  by: { subscriptionId: string } | { paymentIntentId: string },
): Promise<CustomerProductRow | undefined> {
  let query = kyselyOf(db).selectFrom('payment_customer_product').selectAll().where('project_id', '=', projectId);
  query =
    'subscriptionId' in by
      ? query.where('stripe_subscription_id', '=', by.subscriptionId)
      : query.where('stripe_payment_intent_id', '=', by.paymentIntentId);
  return query.orderBy('created_at', 'desc').executeTakeFirst();
}

/** Moves an active subscription's period end on (a renewal); false when it is not active. */
export async function renewCustomerProduct(db: DbHandle, projectId: ProjectId, id: string, periodEnd: Date): Promise<boolean> {
  const result = await kyselyOf(db)
    .updateTable('payment_customer_product')
    .set({ current_period_end: periodEnd })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export type StripeCustomerRow = Selectable<PaymentStripeCustomerTable>;

export function findStripeCustomer(db: DbHandle, projectId: ProjectId, customer: CustomerRef): Promise<StripeCustomerRow | undefined> {
  return kyselyOf(db)
    .selectFrom('payment_stripe_customer')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('customer_type', '=', customer.type)
    .where('customer_id', '=', customer.id)
    .executeTakeFirst();
}

/** Keeps the customer's Stripe customer (the first one wins when two requests race); answers the kept id. */
export async function saveStripeCustomer(
  db: DbHandle,
  projectId: ProjectId,
  customer: CustomerRef,
  stripeCustomerId: string,
): Promise<string> {
  await kyselyOf(db)
    .insertInto('payment_stripe_customer')
    .values({ project_id: projectId, customer_type: customer.type, customer_id: customer.id, stripe_customer_id: stripeCustomerId })
    .onConflict((conflict) => conflict.columns(['project_id', 'customer_type', 'customer_id']).doNothing())
    .execute();
  return (await findStripeCustomer(db, projectId, customer))?.stripe_customer_id ?? stripeCustomerId;
}

export async function setStripeDefaultPaymentMethod(
  db: DbHandle,
  projectId: ProjectId,
  customer: CustomerRef,
  paymentMethod: object,
): Promise<void> {
  await kyselyOf(db)
    .updateTable('payment_stripe_customer')
    .set({ default_payment_method: JSON.stringify(paymentMethod) })
    .where('project_id', '=', projectId)
    .where('customer_type', '=', customer.type)
    .where('customer_id', '=', customer.id)
    .execute();
}

export async function findStripeProductId(db: DbHandle, projectId: ProjectId, productKey: string): Promise<string | undefined> {
  const row = await kyselyOf(db)
    .selectFrom('payment_stripe_product')
    .select('stripe_product_id')
    .where('project_id', '=', projectId)
    .where('product_key', '=', productKey)
    .executeTakeFirst();
  return row?.stripe_product_id;
}

/** Keeps the Stripe product of a catalogue product (the first one wins when two purchases race); answers the kept id. */
export async function saveStripeProductId(
  db: DbHandle,
  projectId: ProjectId,
  productKey: string,
  stripeProductId: string,
): Promise<string> {
  await kyselyOf(db)
    .insertInto('payment_stripe_product')
    .values({ project_id: projectId, product_key: productKey, stripe_product_id: stripeProductId })
    .onConflict((conflict) => conflict.columns(['project_id', 'product_key']).doNothing())
    .execute();
  return (await findStripeProductId(db, projectId, productKey)) ?? stripeProductId;
}

/** Stripe's view of a subscription: its period end and whether it ends then; false when nothing changed or it is not active. */
export async function updateSubscriptionState(
  db: DbHandle,
  projectId: ProjectId,
  id: string,
  state: { currentPeriodEnd: Date | null; cancelAtPeriodEnd: boolean },
): Promise<boolean> {
  let query = kyselyOf(db)
    .updateTable('payment_customer_product')
    .set({
      cancel_at_period_end: state.cancelAtPeriodEnd,
      ...(state.currentPeriodEnd ? { current_period_end: state.currentPeriodEnd } : {}),
    })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('status', '=', 'active');
  query = query.where((eb) =>
    eb.or([
      eb('cancel_at_period_end', '<>', state.cancelAtPeriodEnd),
      ...(state.currentPeriodEnd ? [eb('current_period_end', 'is', null), eb('current_period_end', '<>', state.currentPeriodEnd)] : []),
    ]),
  );
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export function findPurchaseCodeById(db: DbHandle, projectId: ProjectId, id: string): Promise<PurchaseCodeRow | undefined> {
  return kyselyOf(db)
    .selectFrom('payment_purchase_code')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
}
