import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';

export async function findConfigSource(db: DbHandle, projectId: ProjectId): Promise<Record<string, unknown> | undefined> {
  const row = await kyselyOf(db)
    .selectFrom('project_config_source')
    .select('source')
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row?.source;
}

export async function saveConfigSource(db: DbHandle, projectId: ProjectId, source: Record<string, unknown>): Promise<void> {
  await kyselyOf(db)
    .insertInto('project_config_source')
    .values({ project_id: projectId, source: JSON.stringify(source), updated_at: new Date() })
    .onConflict((conflict) => conflict.column('project_id').doUpdateSet({ source: JSON.stringify(source), updated_at: new Date() }))
    .execute();
}

export async function deleteConfigSource(db: DbHandle, projectId: ProjectId): Promise<void> {
  await kyselyOf(db).deleteFrom('project_config_source').where('project_id', '=', projectId).execute();
}
