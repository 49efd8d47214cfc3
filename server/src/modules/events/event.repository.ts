import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export type EventType =
  | 'user.created'
  | 'user.updated'
  | 'user.deleted'
  | 'team.created'
  | 'team.updated'
  | 'team.deleted'
  | 'team_membership.created'
  | 'team_membership.deleted'
  | 'team_permission.created'
  | 'team_permission.deleted'
  | 'project_permission.created'
  | 'project_permission.deleted';

/** Appends an event (webhook delivery reads them later). Call inside the transaction that made the change. */
export async function recordEvent(db: Kysely<Database>, projectId: string, type: EventType, data: unknown): Promise<void> {
  await db
    .insertInto('event')
    .values({ project_id: projectId, type, data: JSON.stringify(data) })
    .execute();
}
