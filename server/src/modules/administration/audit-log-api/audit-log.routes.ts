import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import { authOf } from '../../../request-context/auth-of.ts';
import type { PermissionService } from '../../organisations/permissions/index.ts';
import { requireTeamPermission } from '../../organisations/permissions/index.ts';
import type { TeamService } from '../../organisations/teams/index.ts';
import type { AuditLog, AuditLogEntry, AuditLogFilter } from '../audit-log/index.ts';
import { sendExport } from './audit-log-csv.ts';

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
      return sendExport(reply, auditLog.export(auth.project.id, filter), request.query.format, `audit-log-${auth.project.id}`);
    },
    getTeamAuditLogExport: async (request, reply) => {
      const auth = authOf(request);
      const teamId = request.params.team_id;
      await services.teams.get(auth.project.id, teamId);
      await requireTeamPermission(services.permissions, auth, teamId, '$update_team');
      // The team is the path's, set after the filters: no query field can widen it.
      const filter = { ...filterOf(request.query), teamId };
      return sendExport(reply, auditLog.export(auth.project.id, filter), request.query.format, `audit-log-team-${teamId}`);
    },
  } satisfies Partial<OperationHandlers>;
}
