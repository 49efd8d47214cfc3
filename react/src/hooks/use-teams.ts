import { useSuspenseQuery } from '@tanstack/react-query';
import { useGatehouse } from '../gatehouse-context.ts';
import { getListTeamsQueryKey, listTeams } from '../generated/hooks.ts';
import type { TeamView } from '../generated/hooks.schemas.ts';
import { whenSignedIn } from './signed-in.ts';

export const myTeamsParams = { user_id: 'me' } as const;

/** The teams the signed-in user belongs to (empty when nobody is signed in). Suspends while loading. */
export function useTeams(): TeamView[] {
  const { session } = useGatehouse();
  return useSuspenseQuery({
    queryKey: getListTeamsQueryKey(myTeamsParams),
    queryFn: ({ signal }) => whenSignedIn<TeamView[]>(session, [], async () => (await listTeams(myTeamsParams, { signal })).items),
  }).data;
}
