import type { ProjectId } from '../../../tenancy/project-id.ts';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';

/** The categories a user has chosen for, with the choice; categories without a row keep their default. */
export async function listPreferencesOfUser(
  db: DbHandle,
  projectId: ProjectId,
  userId: string,
): Promise<Array<{ notification_category_id: string; enabled: boolean }>> {
  return kyselyOf(db)
    .selectFrom('notification_preference')
    .select(['notification_category_id', 'enabled'])
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .execute();
}

export async function findPreference(
  db: DbHandle,
  projectId: ProjectId,
  userId: string,
  categoryId: string,
): Promise<{ enabled: boolean } | undefined> {
  return kyselyOf(db)
    .selectFrom('notification_preference')
    .select('enabled')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('notification_category_id', '=', categoryId)
    .executeTakeFirst();
}

export async function upsertPreference(
  db: DbHandle,
  projectId: ProjectId,
  row: { user_id: string; notification_category_id: string; enabled: boolean },
): Promise<void> {
  await kyselyOf(db)
    .insertInto('notification_preference')
    .values({ ...row, project_id: projectId })
    .onConflict((conflict) =>
      conflict.columns(['user_id', 'notification_category_id']).doUpdateSet({ enabled: row.enabled, updated_at: new Date() }),
    )
    .execute();
}
