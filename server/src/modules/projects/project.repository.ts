import type { Kysely } from 'kysely';
import type { Database, NewProjectRow, ProjectRow } from '../../db/schema.ts';

export async function findProjectById(db: Kysely<Database>, id: string): Promise<ProjectRow | undefined> {
  return db.selectFrom('project').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertProject(db: Kysely<Database>, row: NewProjectRow): Promise<ProjectRow> {
  return db.insertInto('project').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateProjectConfigOverride(db: Kysely<Database>, id: string, override: Record<string, unknown>): Promise<void> {
  await db
    .updateTable('project')
    .set({ config_override: JSON.stringify(override) })
    .where('id', '=', id)
    .execute();
}
