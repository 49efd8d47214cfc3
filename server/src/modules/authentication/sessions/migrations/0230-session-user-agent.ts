import type { Kysely } from 'kysely';

/** The user agent that signed the session in: the sessions list shows its browser, OS and kind of device. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refresh_session').addColumn('user_agent', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refresh_session').dropColumn('user_agent').execute();
}
