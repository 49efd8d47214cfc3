import { QueryClient } from '@tanstack/react-query';

/** A value younger than this is served from the cache instead of being fetched again. */
export const REFETCH_THROTTLE_MS = 300;
/** A value nobody watches any more is dropped after this long. */
export const UNUSED_VALUE_LIFETIME_MS = 5_000;

/**
 * The cache policy of the SDK: refetches throttled to one per 300 ms, one fetch of a key at a time
 * (React Query shares an in-flight fetch), values dropped 5 s after the last subscriber leaves.
 * React Query's own retry is off: the client's retry middleware already retries what is safe. Requests run
 * offline too (`networkMode: 'always'`; React Query would pause them, leaving a form on "Please wait…" for
 * good): the client fails them at once with a ConnectionError that says the person is offline.
 */
export function createGatehouseQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: REFETCH_THROTTLE_MS, gcTime: UNUSED_VALUE_LIFETIME_MS, retry: false, networkMode: 'always' },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
