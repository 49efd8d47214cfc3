import type { Insertable, Selectable } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { PaymentCustomerProductTable } from './payment.table.ts';

/** The products customers own (payment_customer_product): listing, granting, ending, renewing. */

export type CustomerRef = { type: string; id: string };

export type CustomerProductRow = Selectable<PaymentCustomerProductTable>;

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
