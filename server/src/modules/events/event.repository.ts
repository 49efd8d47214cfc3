import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export type EventType = 'user.created' | 'user.updated' | 'user.deleted';

/** Appends an event (webhook delivery reads them later). Call inside the transaction that made the change. */
export async function recordEvent(db: Kysely<Database>, projectId: string, type: EventType, data: unknown): Promise<void> {
  await db
    .insertInto('event')
    .values({ project_id: projectId, type, data: JSON.stringify(data) })
    .execute();
}
