import { useSuspenseQuery } from '@tanstack/react-query';
import { useGatehouse } from '../gatehouse-context.ts';
import { getListSessionsQueryKey, listSessions } from '../generated/hooks.ts';
import type { Session } from '../generated/hooks.schemas.ts';
import { whenSignedIn } from './signed-in.ts';

export const mySessionsParams = { user_id: 'me' } as const;

/** The signed-in user's active sessions (devices). Suspends while loading. */
export function useSessions(): Session[] {
  const { session } = useGatehouse();
  return useSuspenseQuery({
    queryKey: getListSessionsQueryKey(mySessionsParams),
    queryFn: ({ signal }) => whenSignedIn<Session[]>(session, [], async () => (await listSessions(mySessionsParams, { signal })).items),
  }).data;
}
