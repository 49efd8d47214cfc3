import type { Kysely } from 'kysely';

/** Whether a project is a development environment (dashboard projects created for local work). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('project')
    .addColumn('is_development_environment', 'boolean', (column) => column.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('project').dropColumn('is_development_environment').execute();
}
