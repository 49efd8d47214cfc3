import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import { authOf } from '../../../request-context/auth-of.ts';
import type { PermissionService } from '../../organisations/permissions/index.ts';
import { requireTeamPermission } from '../../organisations/permissions/index.ts';
import type { TeamService } from '../../organisations/teams/index.ts';
import type { AuditLog, AuditLogEntry, AuditLogFilter } from '../audit-log/index.ts';
import { csvHeader, toCsvRow } from './audit-log-csv.ts';

type FilterQuery = {
  action?: string;
  actor_id?: string;
  target_id?: string;
  since_millis?: number;
  until_millis?: number;
  cursor?: string;
};

const filterOf = (query: FilterQuery): AuditLogFilter => ({
  action: query.action,
  actorId: query.actor_id,
  targetId: query.target_id,
  since: query.since_millis === undefined ? undefined : new Date(query.since_millis),
  until: query.until_millis === undefined ? undefined : new Date(query.until_millis),
  beforeId: query.cursor,
});

const page = ({ items, nextCursor }: { items: AuditLogEntry[]; nextCursor: string | null }) => ({
  items,
  is_paginated: true as const,
  pagination: { next_cursor: nextCursor },
});

export function auditLogHandlers(services: { auditLog: AuditLog; teams: TeamService; permissions: PermissionService }) {
  const { auditLog } = services;
  return {
    listAuditLogEntries: async (request) => {
      const auth = authOf(request);
      const filter = { ...filterOf(request.query), teamId: request.query.team_id };
      return page(await auditLog.list(auth.project.id, filter, request.query.limit));
    },
    listTeamAuditLogEntries: async (request) => {
      const auth = authOf(request);
      await services.teams.get(auth.project.id, request.params.team_id);
      await requireTeamPermission(services.permissions, auth, request.params.team_id, '$update_team');
      const filter = { ...filterOf(request.query), teamId: request.params.team_id };
      return page(await auditLog.list(auth.project.id, filter, request.query.limit));
    },
    getAuditLogExport: async (request, reply) => {
      const auth = authOf(request);
      const filter = { ...filterOf(request.query), teamId: request.query.team_id };
      const csv = request.query.format === 'csv';
      const lines: string[] = csv ? [csvHeader] : [];
      for await (const entry of auditLog.export(auth.project.id, filter)) lines.push(csv ? toCsvRow(entry) : JSON.stringify(entry));
      const body = lines.length > 0 ? `${lines.join('\n')}\n` : '';
      const name = `audit-log-${auth.project.id}.${csv ? 'csv' : 'ndjson'}`;
      return reply
        .status(200)
        .type(csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(body);
    },
  } satisfies Partial<OperationHandlers>;
}
