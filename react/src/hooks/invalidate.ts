import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';

/** An `onSuccess` that marks the given queries stale, so whoever shows them refetches. */
export function useInvalidate(): (...keys: QueryKey[]) => () => Promise<void> {
  const queryClient = useQueryClient();
  return (...keys) =>
    () =>
      invalidateAll(queryClient, keys);
}

export async function invalidateAll(queryClient: QueryClient, keys: QueryKey[]): Promise<void> {
  await Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
