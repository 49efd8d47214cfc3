import type { DbHandle } from '../../../db/handle.ts';
import { Hook } from '../../../kernel/hook.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import { insertEvent } from './event.repository.ts';
import type { EventPayload, EventType } from '@gatehouse/protocol/operation-types';

export type { EventPayload, EventType };

/** The project's event log (webhook delivery reads it later). */
export class EventLog {
  /** Runs after each event is appended, in the same transaction (the audit log derives entries from some). */
  readonly recorded = new Hook<[trx: DbHandle, projectId: ProjectId, type: EventType, data: unknown]>();

  /** Appends an event with its payload as the spec types it; pass the transaction that made the change, so both commit or neither. */
  async record<Type extends EventType>(trx: DbHandle, projectId: ProjectId, type: Type, data: EventPayload<Type>): Promise<void> {
    await insertEvent(trx, projectId, type, data);
    await this.recorded.run(trx, projectId, type, data);
  }
}
