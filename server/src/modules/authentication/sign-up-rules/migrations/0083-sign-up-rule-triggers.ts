import { type Kysely, sql } from 'kysely';

/**
 * Matched sign-up rules, one row per rule per sign-up, read by the rule statistics. The user id is
 * not a foreign key: a rejected sign-up has none, and the count outlives a deleted user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sign_up_rule_trigger')
    .addColumn('id', 'uuid', (column) => column.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('rule_id', 'text', (column) => column.notNull())
    .addColumn('action', 'text', (column) => column.notNull())
    .addColumn('user_id', 'uuid')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('sign_up_rule_trigger_project_time_idx')
    .on('sign_up_rule_trigger')
    .columns(['project_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sign_up_rule_trigger').execute();
}
