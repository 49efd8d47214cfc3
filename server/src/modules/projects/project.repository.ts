import type { Kysely, Updateable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { NewProjectRow, ProjectRow, ProjectTable } from '../../tenancy/project.table.ts';

export async function findProjectById(db: Kysely<Database>, id: string): Promise<ProjectRow | undefined> {
  return db.selectFrom('project').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertProject(db: Kysely<Database>, row: NewProjectRow): Promise<ProjectRow> {
  return db.insertInto('project').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Sets the columns given (undefined ones are left alone; none given: nothing to do). */
export async function updateProject(db: Kysely<Database>, id: string, set: Updateable<ProjectTable>): Promise<void> {
  if (Object.values(set).every((value) => value === undefined)) return;
  await db.updateTable('project').set(set).where('id', '=', id).execute();
}

export async function updateProjectConfigOverride(db: Kysely<Database>, id: string, override: Record<string, unknown>): Promise<void> {
  await db
    .updateTable('project')
    .set({ config_override: JSON.stringify(override) })
    .where('id', '=', id)
    .execute();
}
