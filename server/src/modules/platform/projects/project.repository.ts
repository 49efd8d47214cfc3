import { sql, type Updateable } from 'kysely';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { NewProjectRow, ProjectRow, ProjectTable } from '../../../tenancy/project.table.ts';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';

/** By id as a request names it (not yet known to be a project): where a plain string becomes a tenant's id. */
export async function findProjectById(db: DbHandle, id: string): Promise<ProjectRow | undefined> {
  return kyselyOf(db)
    .selectFrom('project')
    .selectAll()
    .where('id', '=', id as ProjectId)
    .executeTakeFirst();
}

/**
 * The project when no team owns it, its row locked until the transaction ends: of two transactions
 * asking at once, the second waits for the first and then finds it owned.
 */
export async function lockOwnerlessProject(db: DbHandle, id: ProjectId): Promise<ProjectRow | undefined> {
  return kyselyOf(db)
    .selectFrom('project')
    .selectAll()
    .where('id', '=', id)
    .where('owner_team_id', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

export async function insertProject(db: DbHandle, row: NewProjectRow): Promise<ProjectRow> {
  return kyselyOf(db).insertInto('project').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Sets the columns given (undefined ones are left alone; none given: nothing to do). */
export async function updateProject(db: DbHandle, id: ProjectId, set: Updateable<ProjectTable>): Promise<void> {
  if (Object.values(set).every((value) => value === undefined)) return;
  await kyselyOf(db).updateTable('project').set(set).where('id', '=', id).execute();
}

export async function updateProjectConfigOverride(db: DbHandle, id: ProjectId, override: Record<string, unknown>): Promise<void> {
  await kyselyOf(db)
    .updateTable('project')
    .set({ config_override: JSON.stringify(override) })
    .where('id', '=', id)
    .execute();
}

export async function deleteProject(db: DbHandle, id: ProjectId): Promise<void> {
  await kyselyOf(db).deleteFrom('project').where('id', '=', id).execute();
}

/** The projects owned by these teams, oldest first. */
export async function listProjectsOwnedBy(db: DbHandle, teamIds: readonly string[]): Promise<ProjectRow[]> {
  if (teamIds.length === 0) return [];
  return kyselyOf(db).selectFrom('project').selectAll().where('owner_team_id', 'in', teamIds).orderBy('created_at').execute();
}

/** The overrides that name a secret key (`password`, `clientSecret`, `secretKey`): the ones the re-seal job looks at. */
export async function listOverridesNamingSecretsAcrossProjects(db: DbHandle): Promise<Array<Pick<ProjectRow, 'id' | 'config_override'>>> {
  return kyselyOf(db)
    .selectFrom('project')
    .select(['id', 'config_override'])
    .where(sql<boolean>`config_override::text ~ '(password|clientSecret|secretKey)"'`)
    .execute();
}

/** Replaces the override only if it is still `before` (a change meanwhile wins); whether it did. */
export async function replaceOverrideIfUnchanged(
  db: DbHandle,
  id: ProjectId,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Promise<boolean> {
  const result = await kyselyOf(db)
    .updateTable('project')
    .set({ config_override: JSON.stringify(after) })
    .where('id', '=', id)
    .where(sql<boolean>`config_override = ${JSON.stringify(before)}::jsonb`)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
