import type { Insertable, Kysely } from 'kysely';
import type { Database, EmailOutboxRow, EmailOutboxTable } from '../../db/schema.ts';

export async function insertEmailOutbox(db: Kysely<Database>, row: Insertable<EmailOutboxTable>): Promise<EmailOutboxRow> {
  return db.insertInto('email_outbox').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function markEmailOutboxSent(db: Kysely<Database>, id: string, at: Date): Promise<void> {
  await db.updateTable('email_outbox').set({ sent_at: at, error: null }).where('id', '=', id).execute();
}

export async function markEmailOutboxFailed(db: Kysely<Database>, id: string, error: string): Promise<void> {
  await db.updateTable('email_outbox').set({ sent_at: null, error }).where('id', '=', id).execute();
}

export async function listEmailOutbox(db: Kysely<Database>, projectId: string, limit: number): Promise<EmailOutboxRow[]> {
  return db
    .selectFrom('email_outbox')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
