import { ItemNotFoundError } from '@gatehouse/protocol/errors';
import { getCustomerItem, getGetCustomerItemQueryKey } from '../generated/hooks.ts';
import type { Item } from '../generated/hooks.schemas.ts';
import { useSignedInQuery } from './use-signed-in-query.ts';
import { useUser } from './use-user.ts';

/** Whose item: the signed-in user (default) or one of its teams. */
export type ItemCustomer = { type: 'user' | 'team'; id: string };

/**
 * A customer's quantity of an item (payments): the signed-in user's unless a team of it is named;
 * null when nobody is signed in or the project has no such item. It suspends while loading and refreshes like every other query.
 *
 * @example
 * const credits = useItem('credits');
 * return <p>{credits?.quantity ?? 0} credits left</p>;
 */
export function useItem(itemId: string, customer?: ItemCustomer): Item | null {
  const user = useUser();
  const owner = customer ?? (user ? { type: 'user' as const, id: user.id } : null);
  return useSignedInQuery<Item | null>(getGetCustomerItemQueryKey(owner?.type, owner?.id, itemId), null, (signal) =>
    owner
      ? getCustomerItem(owner.type, owner.id, itemId, { signal }).catch((error: unknown) => {
          if (error instanceof ItemNotFoundError) return null;
          throw error;
        })
      : Promise.resolve(null),
  );
}
