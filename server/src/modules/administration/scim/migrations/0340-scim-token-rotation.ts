import type { Kysely } from 'kysely';

/**
 * SCIM token rotation with an overlap: the token a rotation replaced keeps working (as a digest beside the new
 * one) until `previous_token_expires_at`, so the identity provider can be switched over without a gap.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('scim_directory')
    .addColumn('previous_token_hash', 'text')
    .addColumn('previous_token_expires_at', 'timestamptz')
    .addColumn('token_rotated_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('scim_directory')
    .dropColumn('previous_token_hash')
    .dropColumn('previous_token_expires_at')
    .dropColumn('token_rotated_at')
    .execute();
}
