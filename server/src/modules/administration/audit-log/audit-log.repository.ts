import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { AuditLogEntryRow } from './audit-log.table.ts';

export type AuditLogInsert = {
  project_id: ProjectId;
  team_id: string | null;
  action: string;
  actor_type: string;
  actor_id: string | null;
  target_type: string | null;
  target_id: string | null;
  ip_address: string | null;
  user_agent: string | null;
  details: Record<string, unknown>;
};

export type AuditLogFilter = {
  teamId?: string;
  action?: string;
  actorId?: string;
  targetId?: string;
  since?: Date;
  until?: Date;
  /** Keyset: only entries older than this id. */
  beforeId?: string;
};

export async function insertAuditLogEntry(db: DbHandle, entry: AuditLogInsert): Promise<AuditLogEntryRow> {
  return kyselyOf(db)
    .insertInto('audit_log_entry')
    .values({ ...entry, details: JSON.stringify(entry.details) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A page of entries, newest first. */
export async function listAuditLogEntries(
  db: DbHandle,
  projectId: ProjectId,
  filter: AuditLogFilter,
  limit: number,
): Promise<AuditLogEntryRow[]> {
  let query = kyselyOf(db).selectFrom('audit_log_entry').selectAll().where('project_id', '=', projectId);
  if (filter.teamId !== undefined) query = query.where('team_id', '=', filter.teamId);
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  if (filter.actorId !== undefined) query = query.where('actor_id', '=', filter.actorId);
  if (filter.targetId !== undefined) query = query.where('target_id', '=', filter.targetId);
  if (filter.since !== undefined) query = query.where('occurred_at', '>=', filter.since);
  if (filter.until !== undefined) query = query.where('occurred_at', '<', filter.until);
  if (filter.beforeId !== undefined) query = query.where('id', '<', filter.beforeId);
  return query.orderBy('id', 'desc').limit(limit).execute();
}

/** Removes entries older than `cutoff` (the retention job), across projects; the count removed. */
export async function deleteAuditLogEntriesBeforeAcrossProjects(db: DbHandle, cutoff: Date): Promise<number> {
  const result = await kyselyOf(db).deleteFrom('audit_log_entry').where('occurred_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
