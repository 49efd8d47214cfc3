import { type Kysely, sql } from 'kysely';

/**
 * Durable delivery: every outbox row has a status (`queued`, `sending`, `sent`, `failed`, `skipped`),
 * its attempts and when it is next due (also the lease of a `sending` row: a worker that died leaves
 * it due again once the lease ran out). Rows of one send-email call share an `email_send_batch`
 * holding the sources: they are rendered per recipient by the worker, so enqueueing 100 000 users is
 * one INSERT … SELECT.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('email_send_batch')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('template_source', 'text', (column) => column.notNull())
    .addColumn('theme_source', 'text')
    .addColumn('variables', 'jsonb', (column) => column.notNull())
    .addColumn('subject', 'text')
    .addColumn('fallback_subject', 'text', (column) => column.notNull())
    .addColumn('notification_category_id', 'text', (column) => column.notNull())
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .alterTable('email_outbox')
    .addColumn('status', 'text', (column) => column.notNull().defaultTo('queued'))
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addColumn('batch_id', 'uuid', (column) => column.references('email_send_batch.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid')
    .addColumn('updated_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`update email_outbox set status = case
    when sent_at is not null then 'sent'
    when skipped_reason is not null then 'skipped'
    when error is not null then 'failed'
    else 'skipped' end`.execute(db);
  await sql`alter table email_outbox add constraint email_outbox_status_check
    check (status in ('queued', 'sending', 'sent', 'failed', 'skipped'))`.execute(db);
  // The worker's claim: due rows of every project, oldest due first.
  await sql`create index email_outbox_due_idx on email_outbox (next_attempt_at) where status in ('queued', 'sending')`.execute(db);
  await sql`create index email_outbox_batch_idx on email_outbox (batch_id) where batch_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index email_outbox_batch_idx`.execute(db);
  await sql`drop index email_outbox_due_idx`.execute(db);
  await sql`alter table email_outbox drop constraint email_outbox_status_check`.execute(db);
  await db.schema
    .alterTable('email_outbox')
    .dropColumn('status')
    .dropColumn('attempts')
    .dropColumn('next_attempt_at')
    .dropColumn('batch_id')
    .dropColumn('user_id')
    .dropColumn('updated_at')
    .execute();
  await db.schema.dropTable('email_send_batch').execute();
}
