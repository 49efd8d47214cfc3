import type { Insertable, Updateable } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { EmailDraftRow, EmailDraftTable } from './email-draft.table.ts';

export async function insertEmailDraft(db: DbHandle, row: Insertable<EmailDraftTable>): Promise<void> {
  await kyselyOf(db).insertInto('email_draft').values(row).execute();
}

export async function listEmailDrafts(db: DbHandle, projectId: ProjectId): Promise<EmailDraftRow[]> {
  return kyselyOf(db)
    .selectFrom('email_draft')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function findEmailDraft(db: DbHandle, projectId: ProjectId, id: string): Promise<EmailDraftRow | undefined> {
  return kyselyOf(db).selectFrom('email_draft').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

/** Whether the draft existed. */
export async function updateEmailDraft(
  db: DbHandle,
  projectId: ProjectId,
  id: string,
  changes: Omit<Updateable<EmailDraftTable>, 'project_id' | 'id'>,
): Promise<boolean> {
  const query = kyselyOf(db).updateTable('email_draft').where('project_id', '=', projectId).where('id', '=', id);
  const result = Object.keys(changes).length ? await query.set(changes).executeTakeFirst() : await query.set({ id }).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Whether the draft existed. */
export async function deleteEmailDraft(db: DbHandle, projectId: ProjectId, id: string): Promise<boolean> {
  const result = await kyselyOf(db).deleteFrom('email_draft').where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
