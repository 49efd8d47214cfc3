import { getListContactChannelsQueryKey, listContactChannels } from '../generated/hooks.ts';
import type { ContactChannel } from '../generated/hooks.schemas.ts';
import { useSignedInQuery } from './use-signed-in-query.ts';

export const myContactChannelsParams = { user_id: 'me' } as const;

/** The signed-in user's contact channels (emails). Suspends while loading. */
export function useContactChannels(): ContactChannel[] {
  return useSignedInQuery<ContactChannel[]>(
    getListContactChannelsQueryKey(myContactChannelsParams),
    [],
    async (signal) => (await listContactChannels(myContactChannelsParams, { signal })).items,
  );
}
