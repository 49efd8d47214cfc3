import { type Kysely, sql } from 'kysely';

/**
 * Every refresh token a rotation replaced, so replaying any of them (not only the last) is seen as
 * reuse and ends the session.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('replaced_refresh_token')
    .addColumn('token_hash', 'text', (column) => column.primaryKey())
    .addColumn('session_id', 'uuid', (column) => column.notNull().references('refresh_session.id').onDelete('cascade'))
    .addColumn('replaced_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('replaced_refresh_token_session_idx').on('replaced_refresh_token').column('session_id').execute();
  await db.schema.alterTable('refresh_session').dropColumn('previous_token_hash').dropColumn('rotated_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refresh_session').addColumn('previous_token_hash', 'text').addColumn('rotated_at', 'timestamptz').execute();
  await db.schema.dropTable('replaced_refresh_token').execute();
}
