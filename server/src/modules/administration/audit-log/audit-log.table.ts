import type { ColumnType, Generated, Selectable } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** One audit log entry (append-only: a trigger refuses updates; only retention deletes). */
export interface AuditLogEntryTable {
  /** Increasing: the keyset of paging, newest first. */
  id: Generated<string>;
  project_id: ProjectIdColumn;
  team_id: string | null;
  action: string;
  actor_type: string;
  actor_id: string | null;
  target_type: string | null;
  target_id: string | null;
  ip_address: string | null;
  user_agent: string | null;
  details: ColumnType<Record<string, unknown>, string, never>;
  occurred_at: Generated<Date>;
}

export type AuditLogEntryRow = Selectable<AuditLogEntryTable>;

declare module '../../../db/schema.ts' {
  interface Database {
    audit_log_entry: AuditLogEntryTable;
  }
}
