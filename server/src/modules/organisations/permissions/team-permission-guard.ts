import { TeamPermissionRequiredError } from '@gatehouse/protocol/errors';
import type { RequestAuth } from '../../../request-context/request-auth.ts';
import type { PermissionService } from './permission.service.ts';
import type { SystemTeamPermission } from './system-permissions.ts';

/** Client access to a team operation needs the system permission (directly or contained); server access does not. */
export async function requireTeamPermission(
  permissions: PermissionService,
  auth: RequestAuth,
  teamId: string,
  permissionId: SystemTeamPermission,
): Promise<void> {
  if (auth.accessType !== 'client') return;
  const userId = auth.user?.record.id;
  if (!userId) throw new TeamPermissionRequiredError({ team_id: teamId, user_id: null, permission_id: permissionId });
  await permissions.requireTeamPermission(auth.project.id, teamId, userId, permissionId);
}
