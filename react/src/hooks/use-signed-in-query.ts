import { type QueryKey, useSuspenseQuery } from '@tanstack/react-query';
import { useGatehouse } from '../gatehouse-context.ts';
import { whenSignedIn } from './signed-in.ts';

/** A suspending query of the signed-in user's data that answers `empty` (with no request) when nobody is signed in. */
export function useSignedInQuery<T>(queryKey: QueryKey, empty: T, request: (signal: AbortSignal) => Promise<T>): T {
  const { session } = useGatehouse();
  return useSuspenseQuery({ queryKey, queryFn: ({ signal }) => whenSignedIn(session, empty, () => request(signal)) }).data;
}
