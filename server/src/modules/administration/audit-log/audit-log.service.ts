import type { Schema } from '@gatehouse/protocol/operation-types';
import type { DbHandle } from '../../../db/handle.ts';
import { currentRequestOrigin, type RequestActor } from '../../../request-context/request-origin.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { EventLog } from '../../platform/events/index.ts';
import { type AuditLogFilter, insertAuditLogEntry, listAuditLogEntries } from './audit-log.repository.ts';
import type { AuditLogEntryRow } from './audit-log.table.ts';

export type AuditLogEntry = Schema<'AuditLogEntry'>;
export type { AuditLogFilter, RequestActor };

/** What a module records (the request's IP address, user agent and actor are added from its origin). */
export type AuditEvent = {
  /** `<area>.<what happened>`, e.g. `api_key.created` (listed in the spec's `AuditLogEntry.action`). */
  action: string;
  /** The team the event belongs to (a team admin sees it in the team's log). */
  teamId?: string | null;
  target?: { type: string; id: string } | null;
  /** Who did it, when the request's authentication does not say (a SCIM directory, a failed sign-in's email). */
  actor?: RequestActor;
  /** Facts of the event; never a secret. */
  details?: Record<string, unknown>;
};

/** Most entries one page or one export holds. */
export const maxPageSize = 200;
export const maxExportEntries = 100_000;

/**
 * The audit log: security and administrative events of a project. `record` takes the transaction of
 * the change it records (a rolled-back change leaves no entry) and appends the `audit_log.entry_created`
 * webhook event in it too. Nothing in the API writes or changes entries.
 */
export class AuditLog {
  constructor(
    private readonly db: DbHandle,
    private readonly events: EventLog,
  ) {}

  async record(trx: DbHandle, projectId: ProjectId, event: AuditEvent): Promise<void> {
    const origin = currentRequestOrigin();
    const actor = event.actor ?? origin?.actor ?? { type: 'system', id: null };
    const row = await insertAuditLogEntry(trx, {
      project_id: projectId,
      team_id: event.teamId ?? null,
      action: event.action,
      actor_type: actor.type,
      actor_id: actor.id,
      target_type: event.target?.type ?? null,
      target_id: event.target?.id ?? null,
      ip_address: origin?.ip ?? null,
      user_agent: origin?.userAgent ?? null,
      details: event.details ?? {},
    });
    await this.events.record(trx, projectId, 'audit_log.entry_created', toAuditLogEntry(row));
  }

  /** For an event that changes nothing (a failed sign-in): written on its own. */
  recordAlone(projectId: ProjectId, event: AuditEvent): Promise<void> {
    return this.record(this.db, projectId, event);
  }

  /** A page, newest first, and the cursor of the next one. */
  async list(projectId: ProjectId, filter: AuditLogFilter, limit = 50): Promise<{ items: AuditLogEntry[]; nextCursor: string | null }> {
    const size = Math.min(Math.max(limit, 1), maxPageSize);
    const rows = await listAuditLogEntries(this.db, projectId, filter, size + 1);
    const page = rows.slice(0, size);
    const last = page.at(-1);
    return { items: page.map(toAuditLogEntry), nextCursor: rows.length > size && last ? String(last.id) : null };
  }

  /** Every matching entry (up to `maxExportEntries`), newest first, read page by page. */
  async *export(projectId: ProjectId, filter: AuditLogFilter): AsyncGenerator<AuditLogEntry> {
    let beforeId: string | undefined;
    for (let exported = 0; exported < maxExportEntries; ) {
      const rows = await listAuditLogEntries(this.db, projectId, { ...filter, beforeId }, 1000);
      for (const row of rows) {
        if (exported++ >= maxExportEntries) return;
        yield toAuditLogEntry(row);
      }
      const last = rows.at(-1);
      if (!last || rows.length < 1000) return;
      beforeId = String(last.id);
    }
  }
}

export function toAuditLogEntry(row: AuditLogEntryRow): AuditLogEntry {
  return {
    id: String(row.id),
    occurred_at_millis: row.occurred_at.getTime(),
    action: row.action,
    team_id: row.team_id,
    actor_type: row.actor_type as AuditLogEntry['actor_type'],
    actor_id: row.actor_id,
    target_type: row.target_type,
    target_id: row.target_id,
    ip_address: row.ip_address,
    user_agent: row.user_agent,
    details: row.details,
  };
}
