import type { Kysely } from 'kysely';

/** Why an email was not sent (send-email: the user turned the category off, or has no address). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('email_outbox').addColumn('skipped_reason', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('email_outbox').dropColumn('skipped_reason').execute();
}
