import { TeamNotFoundError } from '@gatehouse/protocol/errors';
import { getGetTeamQueryKey, getTeam } from '../generated/hooks.ts';
import type { TeamView } from '../generated/hooks.schemas.ts';
import { useSignedInQuery } from './use-signed-in-query.ts';

/** One team of the signed-in user, or null when there is no such team (or no user). */
export function useTeam(teamId: string): TeamView | null {
  return useSignedInQuery<TeamView | null>(getGetTeamQueryKey(teamId), null, (signal) =>
    getTeam(teamId, { signal }).catch((error: unknown) => {
      if (error instanceof TeamNotFoundError) return null;
      throw error;
    }),
  );
}
