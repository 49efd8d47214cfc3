import { useSuspenseQuery } from '@tanstack/react-query';
import { getCurrentProject, getGetCurrentProjectQueryKey } from '../generated/hooks.ts';
import type { ClientProject } from '../generated/hooks.schemas.ts';

/** The project's public face: name and which sign-in methods it offers. Suspends while loading. */
export function useProject(): ClientProject {
  return useSuspenseQuery({
    queryKey: getGetCurrentProjectQueryKey(),
    queryFn: ({ signal }) => getCurrentProject({ signal }),
    // The project's settings change rarely; keep them for the whole visit.
    staleTime: 60_000,
  }).data;
}
