import type { Kysely } from 'kysely';

/**
 * The project's logos (light and dark, square and full) and where it stands in the dashboard's setup
 * wizard. Projects that exist already are set up, so the status defaults to `completed`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('project')
    .addColumn('logo_url', 'text')
    .addColumn('logo_full_url', 'text')
    .addColumn('logo_dark_mode_url', 'text')
    .addColumn('logo_full_dark_mode_url', 'text')
    .addColumn('onboarding_status', 'text', (column) => column.notNull().defaultTo('completed'))
    .addColumn('onboarding_state', 'jsonb')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('project')
    .dropColumn('logo_url')
    .dropColumn('logo_full_url')
    .dropColumn('logo_dark_mode_url')
    .dropColumn('logo_full_dark_mode_url')
    .dropColumn('onboarding_status')
    .dropColumn('onboarding_state')
    .execute();
}
