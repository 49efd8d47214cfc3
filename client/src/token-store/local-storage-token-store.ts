import { presentTokens, type TokenStore } from './token-store.ts';

export type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
/** Where `storage` events arrive (the window); tests pass an EventTarget. */
export type StorageEventSource = Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;

export type LocalStorageTokenStoreOptions = {
  projectId: string;
  storage?: StorageLike;
  events?: StorageEventSource;
};

/** Tokens in localStorage, keyed by project so several projects can share an origin. */
export function createLocalStorageTokenStore(options: LocalStorageTokenStoreOptions): TokenStore {
  const storage = options.storage ?? (typeof localStorage === 'undefined' ? undefined : localStorage);
  if (!storage) throw new Error('The localStorage token store needs a Storage (a browser, or pass one).');
  const events = options.events ?? (typeof window === 'undefined' ? undefined : window);
  const accessKey = `gatehouse-${options.projectId}-access-token`;
  const refreshKey = `gatehouse-${options.projectId}-refresh-token`;

  function write(key: string, value: string | undefined) {
    if (value) storage!.setItem(key, value);
    else storage!.removeItem(key);
  }

  const store: TokenStore = {
    get: () =>
      presentTokens({ accessToken: storage.getItem(accessKey) ?? undefined, refreshToken: storage.getItem(refreshKey) ?? undefined }),
    set: (tokens) => {
      write(accessKey, tokens.accessToken);
      write(refreshKey, tokens.refreshToken);
    },
    clear: () => store.set({}),
  };
  if (events) {
    // `storage` events fire only in the other tabs of the origin: exactly the foreign writes.
    store.subscribe = (listener) => {
      const onStorage = (event: Event) => {
        const key = (event as StorageEvent).key;
        if (key === null || key === accessKey || key === refreshKey) listener(store.get());
      };
      events.addEventListener('storage', onStorage);
      return () => events.removeEventListener('storage', onStorage);
    };
  }
  return store;
}
