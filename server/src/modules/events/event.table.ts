import type { ColumnType, Generated } from 'kysely';
import type { ProjectIdColumn } from '../../tenancy/project.table.ts';

/** What happened: the event types of the protocol's webhooks. */
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
  | 'project_permission.deleted'
  | 'item_quantity.changed'
  | 'product.granted'
  | 'product.canceled'
  | 'product.refunded';

/** An appended event (see event-log.ts). */
export interface EventTable {
  id: Generated<string>;
  project_id: ProjectIdColumn;
  type: string;
  data: ColumnType<unknown, string, string>;
  created_at: Generated<Date>;
}

declare module '../../db/schema.ts' {
  interface Database {
    event: EventTable;
  }
}
