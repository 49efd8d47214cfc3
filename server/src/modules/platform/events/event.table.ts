import type { ColumnType, Generated } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** What happened: the event types of the protocol's webhooks, from the spec's `WebhookEvent`. */
export type { EventType } from '@gatehouse/protocol/operation-types';

/** An appended event (see event-log.ts). */
export interface EventTable {
  id: Generated<string>;
  project_id: ProjectIdColumn;
  type: string;
  data: ColumnType<unknown, string, string>;
  created_at: Generated<Date>;
}

declare module '../../../db/schema.ts' {
  interface Database {
    event: EventTable;
  }
}
