import type { Insertable, Updateable } from 'kysely';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { ContactChannelRow, ContactChannelTable } from '../users/index.ts';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';

export async function listChannelsOfUser(db: DbHandle, projectId: ProjectId, userId: string): Promise<ContactChannelRow[]> {
  return kyselyOf(db)
    .selectFrom('contact_channel')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .orderBy('is_primary', 'desc')
    .orderBy('created_at')
    .execute();
}

export async function findChannel(db: DbHandle, projectId: ProjectId, userId: string, id: string): Promise<ContactChannelRow | undefined> {
  return kyselyOf(db)
    .selectFrom('contact_channel')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertChannel(db: DbHandle, row: Insertable<ContactChannelTable>): Promise<ContactChannelRow> {
  return kyselyOf(db).insertInto('contact_channel').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateChannel(
  db: DbHandle,
  projectId: ProjectId,
  id: string,
  changes: Updateable<ContactChannelTable>,
): Promise<ContactChannelRow> {
  return kyselyOf(db)
    .updateTable('contact_channel')
    .set(changes)
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function clearPrimary(db: DbHandle, projectId: ProjectId, userId: string): Promise<void> {
  await kyselyOf(db)
    .updateTable('contact_channel')
    .set({ is_primary: false })
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('is_primary', '=', true)
    .execute();
}

export async function deleteChannel(db: DbHandle, projectId: ProjectId, id: string): Promise<void> {
  await kyselyOf(db).deleteFrom('contact_channel').where('project_id', '=', projectId).where('id', '=', id).execute();
}

/** Marks the channel verified if it still has the verified value. */
export async function markChannelVerified(db: DbHandle, projectId: ProjectId, id: string, value: string): Promise<void> {
  await kyselyOf(db)
    .updateTable('contact_channel')
    .set({ is_verified: true })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('value', '=', value)
    .execute();
}
