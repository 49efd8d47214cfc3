import type { DbHandle } from '../../db/handle.ts';
import type { ProjectId } from '../../tenancy/project-id.ts';
import { insertEvent } from './event.repository.ts';
import type { EventType } from './event.table.ts';

export type { EventType };

/** The project's event log (webhook delivery reads it later). */
export class EventLog {
  /** Appends an event; pass the transaction that made the change, so both commit or neither. */
  record(trx: DbHandle, projectId: ProjectId, type: EventType, data: unknown): Promise<void> {
    return insertEvent(trx, projectId, type, data);
  }
}
