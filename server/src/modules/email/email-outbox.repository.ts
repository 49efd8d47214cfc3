import type { Insertable } from 'kysely';
import type { ProjectId } from '../../tenancy/project-id.ts';
import type { EmailOutboxRow, EmailOutboxTable } from './email-outbox.table.ts';
import { type DbHandle, kyselyOf } from '../../db/handle.ts';

export async function insertEmailOutbox(db: DbHandle, row: Insertable<EmailOutboxTable>): Promise<EmailOutboxRow> {
  return kyselyOf(db).insertInto('email_outbox').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function markEmailOutboxSent(db: DbHandle, projectId: ProjectId, id: string, at: Date): Promise<void> {
  await kyselyOf(db)
    .updateTable('email_outbox')
    .set({ sent_at: at, error: null })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .execute();
}

export async function markEmailOutboxFailed(db: DbHandle, projectId: ProjectId, id: string, error: string): Promise<void> {
  await kyselyOf(db)
    .updateTable('email_outbox')
    .set({ sent_at: null, error })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .execute();
}

export async function listEmailOutbox(db: DbHandle, projectId: ProjectId, limit: number): Promise<EmailOutboxRow[]> {
  return kyselyOf(db)
    .selectFrom('email_outbox')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Emails recorded but neither sent nor failed yet, in every project (the metrics' queue depth). */
export async function countUnsentEmailsAcrossProjects(db: DbHandle): Promise<number> {
  const row = await kyselyOf(db)
    .selectFrom('email_outbox')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('sent_at', 'is', null)
    .where('error', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
