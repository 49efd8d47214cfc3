import { useSuspenseQuery } from '@tanstack/react-query';
import { useGatehouse } from '../gatehouse-context.ts';
import { getListUserApiKeysQueryKey, listUserApiKeys } from '../generated/hooks.ts';
import type { UserApiKey } from '../generated/hooks.schemas.ts';
import { whenSignedIn } from './signed-in.ts';

export const myApiKeysParams = { user_id: 'me' } as const;

/** The signed-in user's API keys (without their secret values). Suspends while loading. */
export function useApiKeys(): UserApiKey[] {
  const { session } = useGatehouse();
  return useSuspenseQuery({
    queryKey: getListUserApiKeysQueryKey(myApiKeysParams),
    queryFn: ({ signal }) =>
      whenSignedIn<UserApiKey[]>(session, [], async () => (await listUserApiKeys(myApiKeysParams, { signal })).items),
  }).data;
}
