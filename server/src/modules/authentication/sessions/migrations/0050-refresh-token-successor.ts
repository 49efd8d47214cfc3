import type { Kysely } from 'kysely';

/**
 * A replaced refresh token remembers its successor, sealed under a key only the replaced token
 * yields: concurrent refreshes of one token within the grace window all get the same new token.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('replaced_refresh_token').addColumn('successor_sealed', 'bytea').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('replaced_refresh_token').dropColumn('successor_sealed').execute();
}
