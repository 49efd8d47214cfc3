import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { EventType } from '@gatehouse/protocol/operation-types';

/** Appends an event row. */
export async function insertEvent(db: DbHandle, projectId: ProjectId, type: EventType, data: unknown): Promise<void> {
  await kyselyOf(db)
    .insertInto('event')
    .values({ project_id: projectId, type, data: JSON.stringify(data) })
    .execute();
}
