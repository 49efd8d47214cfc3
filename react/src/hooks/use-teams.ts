import { getListTeamsQueryKey, listTeams } from '../generated/hooks.ts';
import type { TeamView } from '../generated/hooks.schemas.ts';
import { useSignedInQuery } from './use-signed-in-query.ts';

export const myTeamsParams = { user_id: 'me' } as const;

/** The teams the signed-in user belongs to (empty when nobody is signed in). Suspends while loading. */
export function useTeams(): TeamView[] {
  return useSignedInQuery<TeamView[]>(
    getListTeamsQueryKey(myTeamsParams),
    [],
    async (signal) => (await listTeams(myTeamsParams, { signal })).items,
  );
}
