import { type Kysely, sql } from 'kysely';

/**
 * Stripe mode (docs/protocol/endpoints.md §22, §25): each project's connected Stripe account, the Stripe events
 * applied (one row per event id: a replayed delivery finds its row and changes nothing), and the
 * currency of a refund (Stripe refunds in the purchase's currency).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_stripe_account')
    .addColumn('project_id', 'text', (column) => column.primaryKey().references('project.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (column) => column.notNull().unique())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('payment_stripe_event')
    .addColumn('event_id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('applied', 'boolean', (column) => column.notNull())
    .addColumn('received_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .alterTable('payment_refund')
    .addColumn('currency', 'text', (column) => column.notNull().defaultTo('USD'))
    .execute();
  await db.schema
    .createIndex('payment_customer_product_stripe_subscription_idx')
    .on('payment_customer_product')
    .columns(['project_id', 'stripe_subscription_id'])
    .execute();
  await db.schema
    .createIndex('payment_customer_product_stripe_payment_intent_idx')
    .on('payment_customer_product')
    .columns(['project_id', 'stripe_payment_intent_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payment_customer_product_stripe_payment_intent_idx').execute();
  await db.schema.dropIndex('payment_customer_product_stripe_subscription_idx').execute();
  await db.schema.alterTable('payment_refund').dropColumn('currency').execute();
  await db.schema.dropTable('payment_stripe_event').execute();
  await db.schema.dropTable('payment_stripe_account').execute();
}
