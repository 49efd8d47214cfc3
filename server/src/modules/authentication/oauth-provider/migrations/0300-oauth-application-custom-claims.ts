import { type Kysely, sql } from 'kysely';

/** An OAuth application's custom claims template (claim name → CEL expression; `{}`: none). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('oauth_application')
    .addColumn('custom_claims', 'jsonb', (column) => column.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oauth_application').dropColumn('custom_claims').execute();
}
