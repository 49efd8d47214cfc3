import { type Kysely, sql } from 'kysely';

/**
 * Stripe purchases (docs/protocol/endpoints.md §22): each customer's Stripe customer on the project's connected
 * account with its default payment method (billing reads answer from here, never asking Stripe), the
 * Stripe product a catalogue product is sold as (subscriptions need one), and whether a subscription
 * ends at its period end (Stripe's `cancel_at_period_end`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_stripe_customer')
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('customer_type', 'text', (column) => column.notNull())
    .addColumn('customer_id', 'text', (column) => column.notNull())
    .addColumn('stripe_customer_id', 'text', (column) => column.notNull())
    .addColumn('default_payment_method', 'jsonb')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('payment_stripe_customer_pkey', ['project_id', 'customer_type', 'customer_id'])
    .execute();
  await db.schema
    .createTable('payment_stripe_product')
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('product_key', 'text', (column) => column.notNull())
    .addColumn('stripe_product_id', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('payment_stripe_product_pkey', ['project_id', 'product_key'])
    .execute();
  await db.schema
    .alterTable('payment_customer_product')
    .addColumn('cancel_at_period_end', 'boolean', (column) => column.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payment_customer_product').dropColumn('cancel_at_period_end').execute();
  await db.schema.dropTable('payment_stripe_product').execute();
  await db.schema.dropTable('payment_stripe_customer').execute();
}
