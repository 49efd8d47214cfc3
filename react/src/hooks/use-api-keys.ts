import { getListUserApiKeysQueryKey, listUserApiKeys } from '../generated/hooks.ts';
import type { UserApiKey } from '../generated/hooks.schemas.ts';
import { useSignedInQuery } from './use-signed-in-query.ts';

export const myApiKeysParams = { user_id: 'me' } as const;

/** The signed-in user's API keys (without their secret values). Suspends while loading. */
export function useApiKeys(): UserApiKey[] {
  return useSignedInQuery<UserApiKey[]>(
    getListUserApiKeysQueryKey(myApiKeysParams),
    [],
    async (signal) => (await listUserApiKeys(myApiKeysParams, { signal })).items,
  );
}
