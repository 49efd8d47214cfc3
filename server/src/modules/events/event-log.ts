import type { DbHandle } from '../../db/handle.ts';
import type { ProjectId } from '../../tenancy/project-id.ts';
import { insertEvent } from './event.repository.ts';
import type { EventPayload, EventType } from '@gatehouse/protocol/operation-types';

export type { EventPayload, EventType };

/** The project's event log (webhook delivery reads it later). */
export class EventLog {
  /** Appends an event with its payload as the spec types it; pass the transaction that made the change, so both commit or neither. */
  record<Type extends EventType>(trx: DbHandle, projectId: ProjectId, type: Type, data: EventPayload<Type>): Promise<void> {
    return insertEvent(trx, projectId, type, data);
  }
}
