import { type Kysely, sql } from 'kysely';

/**
 * One row per end-user sign-up attempt judged by the sign-up gate (admitted or not): what the risk
 * scores count over time (attempts per IP and per subnet, emails alike). Kept for 30 days by the
 * module's job; the user id is not a foreign key (a rejected attempt has none).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sign_up_signal')
    .addColumn('id', 'uuid', (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('ip', 'text')
    .addColumn('subnet', 'text')
    .addColumn('email_skeleton', 'text')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  for (const column of ['ip', 'subnet', 'email_skeleton'] as const) {
    await db.schema
      .createIndex(`sign_up_signal_${column}_idx`)
      .on('sign_up_signal')
      .columns(['project_id', column, 'created_at'])
      .execute();
  }
  await db.schema.createIndex('sign_up_signal_created_idx').on('sign_up_signal').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sign_up_signal').execute();
}
