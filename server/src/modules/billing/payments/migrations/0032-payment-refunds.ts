import { type Kysely, sql } from 'kysely';

/**
 * Refunds (docs/protocol/endpoints.md §25, `/internal/payments/transactions/refund`): one row per refunded purchase;
 * the unique purchase id makes a refund happen once even when two requests race.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_refund')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('customer_product_id', 'uuid', (column) =>
      column.notNull().unique().references('payment_customer_product.id').onDelete('cascade'),
    )
    .addColumn('customer_type', 'text', (column) => column.notNull())
    .addColumn('customer_id', 'text', (column) => column.notNull())
    .addColumn('amount_usd', 'text', (column) => column.notNull())
    .addColumn('test_mode', 'boolean', (column) => column.notNull())
    .addColumn('stripe_refund_id', 'text')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('payment_refund_created_idx').on('payment_refund').columns(['project_id', 'created_at', 'id']).execute();
  await db.schema
    .createIndex('payment_item_change_created_idx')
    .on('payment_item_change')
    .columns(['project_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payment_item_change_created_idx').execute();
  await db.schema.dropTable('payment_refund').execute();
}
