import { type Kysely, sql } from 'kysely';

/**
 * TOTP MFA state: single-use recovery codes (salted digests) and, per user, the last accepted TOTP
 * time step (a code is never accepted twice) and the window of wrong second-factor attempts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mfa_recovery_code')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (column) => column.notNull().references('project_user.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (column) => column.notNull().unique())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('mfa_recovery_code_user_idx').on('mfa_recovery_code').column('user_id').execute();

  await db.schema
    .createTable('user_mfa_state')
    .addColumn('user_id', 'uuid', (column) => column.primaryKey().references('project_user.id').onDelete('cascade'))
    .addColumn('last_totp_step', 'integer')
    .addColumn('failed_attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('failures_since', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_mfa_state').execute();
  await db.schema.dropTable('mfa_recovery_code').execute();
}
