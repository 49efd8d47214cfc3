import { TeamNotFoundError } from '@gatehouse/client';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useGatehouse } from '../gatehouse-context.ts';
import { getGetTeamQueryKey, getTeam } from '../generated/hooks.ts';
import type { TeamView } from '../generated/hooks.schemas.ts';
import { whenSignedIn } from './signed-in.ts';

/** One team of the signed-in user, or null when there is no such team (or no user). */
export function useTeam(teamId: string): TeamView | null {
  const { session } = useGatehouse();
  return useSuspenseQuery({
    queryKey: getGetTeamQueryKey(teamId),
    queryFn: ({ signal }) =>
      whenSignedIn<TeamView | null>(session, null, () =>
        getTeam(teamId, { signal }).catch((error: unknown) => {
          if (error instanceof TeamNotFoundError) return null;
          throw error;
        }),
      ),
  }).data;
}
