import { getListTeamPermissionsQueryKey, listTeamPermissions } from '../generated/hooks.ts';
import { useSignedInQuery } from './use-signed-in-query.ts';

/**
 * Whether the signed-in user holds a team permission, directly or through the ones it contains.
 *
 * @example
 * const canInvite = usePermission(team, '$invite_members');
 */
export function usePermission(team: { id: string } | string, permissionId: string): boolean {
  const params = {
    team_id: typeof team === 'string' ? team : team.id,
    user_id: 'me',
    permission_id: permissionId,
    recursive: 'true',
  } as const;
  return useSignedInQuery(
    getListTeamPermissionsQueryKey(params),
    false,
    async (signal) => (await listTeamPermissions(params, { signal })).items.length > 0,
  );
}
