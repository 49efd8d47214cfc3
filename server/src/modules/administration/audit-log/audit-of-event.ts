import type { EventType } from '../../platform/events/index.ts';
import type { AuditEvent } from './audit-log.service.ts';

type Ids = { id?: string; team_id?: string; user_id?: string };

/**
 * The audit entry an event of the event log stands for (membership and permission changes), or none.
 * Runs in the transaction that recorded the event.
 */
export function auditEntryForEvent(type: EventType, data: unknown): AuditEvent | undefined {
  const ids = data as Ids;
  const user = ids.user_id ? { type: 'user', id: ids.user_id } : null;
  switch (type) {
    case 'team_membership.created':
      return { action: 'team.member_added', teamId: ids.team_id, target: user };
    case 'team_membership.deleted':
      return { action: 'team.member_removed', teamId: ids.team_id, target: user };
    case 'team_permission.created':
      return { action: 'team_permission.granted', teamId: ids.team_id, target: user, details: { permission_id: ids.id } };
    case 'team_permission.deleted':
      return { action: 'team_permission.revoked', teamId: ids.team_id, target: user, details: { permission_id: ids.id } };
    case 'project_permission.created':
      return { action: 'project_permission.granted', target: user, details: { permission_id: ids.id } };
    case 'project_permission.deleted':
      return { action: 'project_permission.revoked', target: user, details: { permission_id: ids.id } };
    default:
      return undefined;
  }
}
