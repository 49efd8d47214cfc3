import { describe, expect, it } from 'vitest';
import { createLocalStorageTokenStore, type StorageLike } from './local-storage-token-store.ts';

function fakeStorage(): StorageLike & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

const storageEvent = (key: string | null) => Object.assign(new Event('storage'), { key });

describe('localStorage token store', () => {
  it('round-trips under keys namespaced by project', () => {
    const storage = fakeStorage();
    const one = createLocalStorageTokenStore({ projectId: 'one', storage });
    const two = createLocalStorageTokenStore({ projectId: 'two', storage });
    one.set({ accessToken: 'at-1', refreshToken: 'rt-1' });
    two.set({ refreshToken: 'rt-2' });
    expect([...storage.items.keys()].sort()).toEqual([
      'gatehouse-one-access-token',
      'gatehouse-one-refresh-token',
      'gatehouse-two-refresh-token',
    ]);
    expect(one.get()).toEqual({ accessToken: 'at-1', refreshToken: 'rt-1' });
    expect(two.get()).toEqual({ refreshToken: 'rt-2' });
    one.set({ refreshToken: 'rt-1b' });
    expect(one.get()).toEqual({ refreshToken: 'rt-1b' });
    one.clear();
    expect(one.get()).toEqual({});
    expect(two.get()).toEqual({ refreshToken: 'rt-2' });
  });

  it('reports writes of other tabs to its own keys through storage events', () => {
    const storage = fakeStorage();
    const events = new EventTarget();
    const store = createLocalStorageTokenStore({ projectId: 'one', storage, events });
    const seen: unknown[] = [];
    const unsubscribe = store.subscribe!((tokens) => seen.push(tokens));
    storage.items.set('gatehouse-one-refresh-token', 'rt-other-tab');
    events.dispatchEvent(storageEvent('gatehouse-one-refresh-token'));
    events.dispatchEvent(storageEvent('gatehouse-two-refresh-token'));
    events.dispatchEvent(storageEvent(null));
    unsubscribe();
    events.dispatchEvent(storageEvent('gatehouse-one-access-token'));
    expect(seen).toEqual([{ refreshToken: 'rt-other-tab' }, { refreshToken: 'rt-other-tab' }]);
  });

  it('has no subscribe without an event source', () => {
    expect(createLocalStorageTokenStore({ projectId: 'one', storage: fakeStorage() }).subscribe).toBeUndefined();
  });
});
