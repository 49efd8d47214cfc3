import { type Kysely, sql } from 'kysely';

/**
 * Payments (docs/protocol/endpoints.md §22): the item ledger (manual quantity changes, each possibly expiring) and
 * the products customers own (granted, bought in test mode or through Stripe), which are also the
 * transactions the dashboard lists. Customers are `(customer_type, customer_id)`: users, teams or
 * ids of the project's own (custom), so there is no foreign key to users or teams.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_item_change')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('customer_type', 'text', (column) => column.notNull())
    .addColumn('customer_id', 'text', (column) => column.notNull())
    .addColumn('item_id', 'text', (column) => column.notNull())
    .addColumn('delta', 'bigint', (column) => column.notNull())
    .addColumn('expires_at', 'timestamptz')
    .addColumn('description', 'text')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('payment_item_change_customer_idx')
    .on('payment_item_change')
    .columns(['project_id', 'customer_type', 'customer_id', 'item_id'])
    .execute();

  await db.schema
    .createTable('payment_customer_product')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('customer_type', 'text', (column) => column.notNull())
    .addColumn('customer_id', 'text', (column) => column.notNull())
    .addColumn('product_id', 'text')
    .addColumn('product', 'jsonb', (column) => column.notNull())
    .addColumn('price_id', 'text')
    .addColumn('quantity', 'integer', (column) => column.notNull())
    .addColumn('source', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('amount', 'text')
    .addColumn('currency', 'text')
    .addColumn('stripe_subscription_id', 'text')
    .addColumn('stripe_payment_intent_id', 'text')
    .addColumn('current_period_end', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('ended_at', 'timestamptz')
    .addColumn('refunded_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('payment_customer_product_customer_idx')
    .on('payment_customer_product')
    .columns(['project_id', 'customer_type', 'customer_id'])
    .execute();
  await db.schema
    .createIndex('payment_customer_product_created_idx')
    .on('payment_customer_product')
    .columns(['project_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payment_customer_product').execute();
  await db.schema.dropTable('payment_item_change').execute();
}
