import type { Selectable } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { PaymentStripeCustomerTable } from './payment.table.ts';
import type { CustomerRef } from './customer-product.repository.ts';

/** What Gatehouse keeps of Stripe: the connected account, the events taken once, customers, products. */

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
