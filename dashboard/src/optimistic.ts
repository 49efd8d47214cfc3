import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Mutation callbacks that show a change in a cached answer at once: `apply` writes it into the answer cached under
 * `key` before the call, a refusal puts the answer back as it was, and when the call is over the answer is asked
 * again (`settled`, by default the same query).
 */
export function optimisticUpdate<T, V>(
  queryClient: QueryClient,
  key: QueryKey,
  apply: (cached: T, variables: V) => T,
  settled: () => unknown = () => queryClient.invalidateQueries({ queryKey: key }),
) {
  return {
    onMutate: async (variables: V) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<T>(key);
      if (previous !== undefined) queryClient.setQueryData<T>(key, apply(previous, variables));
      return { previous };
    },
    onError: (_error: unknown, _variables: V, context: { previous: T | undefined } | undefined) => {
      if (context?.previous !== undefined) queryClient.setQueryData(key, context.previous);
    },
    onSettled: () => settled(),
  };
}
