import { type Kysely, sql } from 'kysely';

/**
 * Purchase codes (docs/protocol/endpoints.md §22, create-purchase-url): what the hosted checkout page sells to
 * whom, kept as the code's digest; `used_at` is set by the purchase that completes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('payment_purchase_code')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (column) => column.notNull().unique())
    .addColumn('customer_type', 'text', (column) => column.notNull())
    .addColumn('customer_id', 'text', (column) => column.notNull())
    .addColumn('product_id', 'text')
    .addColumn('product', 'jsonb', (column) => column.notNull())
    .addColumn('return_url', 'text')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payment_purchase_code').execute();
}
