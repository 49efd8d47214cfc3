import { type Insertable, sql } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { PaymentRefundTable } from './payment.table.ts';

/** Refunds and the transaction list (purchases/grants, item changes and refunds as one stream). */

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
