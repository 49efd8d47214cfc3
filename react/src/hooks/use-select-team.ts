import { useQueryClient } from '@tanstack/react-query';
import { getGetCurrentUserQueryKey, useUpdateCurrentUser } from '../generated/hooks.ts';

/** Makes a team the user's selected team (kept on the user, so it follows them across devices). */
export function useSelectTeam(): { selectTeam: (teamId: string | null) => Promise<void>; isPending: boolean; error: unknown } {
  const queryClient = useQueryClient();
  const mutation = useUpdateCurrentUser({ mutation: { onSuccess: (user) => queryClient.setQueryData(getGetCurrentUserQueryKey(), user) } });
  return {
    selectTeam: async (teamId) => {
      await mutation.mutateAsync({ data: { selected_team_id: teamId } });
    },
    isPending: mutation.isPending,
    error: mutation.error,
  };
}
