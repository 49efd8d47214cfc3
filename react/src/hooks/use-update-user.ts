import { useQueryClient } from '@tanstack/react-query';
import { getGetCurrentUserQueryKey, useUpdateCurrentUser } from '../generated/hooks.ts';

/**
 * Updates the signed-in user (display name, profile image, selected team, ...); the cached user is
 * replaced by the server's answer.
 *
 * @example
 * const update = useUpdateUser();
 * update.mutate({ data: { display_name: 'Ada' } });
 */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useUpdateCurrentUser({ mutation: { onSuccess: (user) => queryClient.setQueryData(getGetCurrentUserQueryKey(), user) } });
}
