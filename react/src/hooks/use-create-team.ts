import { useCreateTeam as useCreateTeamMutation, getGetCurrentUserQueryKey, getListTeamsQueryKey } from '../generated/hooks.ts';
import { useInvalidate } from './invalidate.ts';
import { myTeamsParams } from './use-teams.ts';

/**
 * Creates a team with the signed-in user as its first member (and admin).
 *
 * @example
 * const createTeam = useCreateTeam();
 * const team = await createTeam.mutateAsync({ data: { display_name: 'Acme', creator_user_id: 'me' } });
 */
export function useCreateTeam() {
  const invalidate = useInvalidate();
  return useCreateTeamMutation({ mutation: { onSuccess: invalidate(getListTeamsQueryKey(myTeamsParams), getGetCurrentUserQueryKey()) } });
}
