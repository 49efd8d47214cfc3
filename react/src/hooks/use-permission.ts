import { useSuspenseQuery } from '@tanstack/react-query';
import { useGatehouse } from '../gatehouse-context.ts';
import { getListTeamPermissionsQueryKey, listTeamPermissions } from '../generated/hooks.ts';
import { whenSignedIn } from './signed-in.ts';

/**
 * Whether the signed-in user holds a team permission, directly or through the ones it contains.
 *
 * @example
 * const canInvite = usePermission(team, '$invite_members');
 */
export function usePermission(team: { id: string } | string, permissionId: string): boolean {
  const { session } = useGatehouse();
  const params = {
    team_id: typeof team === 'string' ? team : team.id,
    user_id: 'me',
    permission_id: permissionId,
    recursive: 'true',
  } as const;
  return useSuspenseQuery({
    queryKey: getListTeamPermissionsQueryKey(params),
    queryFn: ({ signal }) => whenSignedIn(session, false, async () => (await listTeamPermissions(params, { signal })).items.length > 0),
  }).data;
}
