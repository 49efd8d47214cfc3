import { useSuspenseQuery } from '@tanstack/react-query';
import { useGatehouse } from '../gatehouse-context.ts';
import { getListContactChannelsQueryKey, listContactChannels } from '../generated/hooks.ts';
import type { ContactChannel } from '../generated/hooks.schemas.ts';
import { whenSignedIn } from './signed-in.ts';

export const myContactChannelsParams = { user_id: 'me' } as const;

/** The signed-in user's contact channels (emails). Suspends while loading. */
export function useContactChannels(): ContactChannel[] {
  const { session } = useGatehouse();
  return useSuspenseQuery({
    queryKey: getListContactChannelsQueryKey(myContactChannelsParams),
    queryFn: ({ signal }) =>
      whenSignedIn<ContactChannel[]>(session, [], async () => (await listContactChannels(myContactChannelsParams, { signal })).items),
  }).data;
}
