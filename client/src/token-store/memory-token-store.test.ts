import { describe, expect, it } from 'vitest';
import { createMemoryTokenStore } from './memory-token-store.ts';

describe('memory token store', () => {
  it('round-trips, replaces both tokens on set, and clears', () => {
    const store = createMemoryTokenStore({ accessToken: 'at-1', refreshToken: 'rt-1' });
    expect(store.get()).toEqual({ accessToken: 'at-1', refreshToken: 'rt-1' });
    store.set({ refreshToken: 'rt-2' });
    expect(store.get()).toEqual({ refreshToken: 'rt-2' });
    store.get().refreshToken = 'mutated';
    expect(store.get()).toEqual({ refreshToken: 'rt-2' });
    store.clear();
    expect(store.get()).toEqual({});
  });
});
