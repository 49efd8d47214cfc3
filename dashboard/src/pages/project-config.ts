import { type AdminProject, api, type ProjectUpdate } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { useProjectScope, useRootQueryClient } from '../shell-context.ts';

/**
 * Saves a change to the project (its config through the dashboard view of it) with the page showing
 * it at once; a refused change (the server's plain-text 400) puts the previous project back.
 */
export function useProjectUpdate() {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const rootQueryClient = useRootQueryClient();
  const key = api.getGetAdminProjectQueryKey();
  return api.useUpdateAdminProject({
    request,
    mutation: {
      onMutate: async ({ data }) => {
        await queryClient.cancelQueries({ queryKey: key });
        const previous = queryClient.getQueryData<AdminProject>(key);
        if (previous) queryClient.setQueryData<AdminProject>(key, optimistic(previous, data));
        return { previous };
      },
      onError: (_error, _variables, context) => {
        if (context?.previous) queryClient.setQueryData(key, context.previous);
      },
      onSuccess: (project) => {
        queryClient.setQueryData(key, project);
        void rootQueryClient.invalidateQueries({ queryKey: api.getListInternalProjectsQueryKey() });
      },
    },
  });
}

/** The project as it will be once the change is saved (for the fields the change names). */
function optimistic(project: AdminProject, change: ProjectUpdate): AdminProject {
  const { config, ...rest } = change;
  const next = { ...project, ...(rest as Partial<AdminProject>) };
  if (!config) return next;
  const { oauth_providers: _providers, email_config: _email, ...plain } = config;
  return { ...next, config: { ...project.config, ...(plain as Partial<AdminProject['config']>) } };
}
