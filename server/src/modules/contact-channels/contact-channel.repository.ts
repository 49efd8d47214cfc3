import type { Insertable, Kysely, Updateable } from 'kysely';
import type { ContactChannelRow, ContactChannelTable, Database } from '../../db/schema.ts';

export async function listChannelsOfUser(db: Kysely<Database>, projectId: string, userId: string): Promise<ContactChannelRow[]> {
  return db
    .selectFrom('contact_channel')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .orderBy('is_primary', 'desc')
    .orderBy('created_at')
    .execute();
}

export async function findChannel(
  db: Kysely<Database>,
  projectId: string,
  userId: string,
  id: string,
): Promise<ContactChannelRow | undefined> {
  return db
    .selectFrom('contact_channel')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertChannel(db: Kysely<Database>, row: Insertable<ContactChannelTable>): Promise<ContactChannelRow> {
  return db.insertInto('contact_channel').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateChannel(
  db: Kysely<Database>,
  id: string,
  changes: Updateable<ContactChannelTable>,
): Promise<ContactChannelRow> {
  return db.updateTable('contact_channel').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function clearPrimary(db: Kysely<Database>, userId: string): Promise<void> {
  await db.updateTable('contact_channel').set({ is_primary: false }).where('user_id', '=', userId).where('is_primary', '=', true).execute();
}

export async function deleteChannel(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('contact_channel').where('id', '=', id).execute();
}
