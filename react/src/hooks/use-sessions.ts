import { getListSessionsQueryKey, listSessions } from '../generated/hooks.ts';
import type { Session } from '../generated/hooks.schemas.ts';
import { useSignedInQuery } from './use-signed-in-query.ts';

export const mySessionsParams = { user_id: 'me' } as const;

/** The signed-in user's active sessions (devices). Suspends while loading. */
export function useSessions(): Session[] {
  return useSignedInQuery<Session[]>(
    getListSessionsQueryKey(mySessionsParams),
    [],
    async (signal) => (await listSessions(mySessionsParams, { signal })).items,
  );
}
