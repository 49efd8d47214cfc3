import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, jsonResponse } from '../testing/fake-fetch.ts';
import { testJwt } from '../testing/test-jwt.ts';
import { createMemoryTokenStore } from '../token-store/memory-token-store.ts';
import type { TokenStore } from '../token-store/token-store.ts';
import type { BroadcastChannelLike, CrossTabOptions, LockManagerLike } from './cross-tab-refresh.ts';
import { createSession } from './session.ts';

const inSeconds = (seconds: number) => testJwt(Date.now() + seconds * 1000);

function sessionWith(store: TokenStore, crossTab: CrossTabOptions, fetch: typeof globalThis.fetch) {
  return createSession({ baseUrl: 'http://api.test', projectId: 'proj', tokenStore: store, fetch, ...crossTab });
}

/** Web Locks for one process: callbacks under the same name run one after another. */
function fakeLocks(beforeCallback: () => void = () => {}) {
  const names: string[] = [];
  let tail = Promise.resolve();
  const locks: LockManagerLike = {
    request<T>(name: string, callback: (lock: unknown) => Promise<T>) {
      names.push(name);
      const run = tail.then(() => {
        beforeCallback();
        return callback({ name });
      });
      tail = run.then(
        () => {},
        () => {},
      );
      return run;
    },
  };
  return { locks, names };
}

/** BroadcastChannels of several "tabs": a message reaches every other channel of the same name. */
function fakeChannels() {
  const open: { name: string; listeners: ((event: MessageEvent) => void)[] }[] = [];
  const posted: unknown[] = [];
  const create = (name: string): BroadcastChannelLike => {
    const self = { name, listeners: [] as ((event: MessageEvent) => void)[] };
    open.push(self);
    return {
      postMessage(message) {
        posted.push(message);
        for (const other of open) {
          if (other !== self && other.name === name) {
            for (const listener of other.listeners) void Promise.resolve().then(() => listener({ data: message } as MessageEvent));
          }
        }
      },
      addEventListener: (_type, listener) => self.listeners.push(listener),
    };
  };
  return { create, posted };
}

describe('session', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refreshes inside navigator.locks under a per-project name', async () => {
    const fresh = await inSeconds(600);
    const fetch = fakeFetch(() => jsonResponse({ access_token: fresh }));
    const { locks, names } = fakeLocks();
    const session = sessionWith(createMemoryTokenStore({ accessToken: await inSeconds(5), refreshToken: 'rt-1' }), { locks }, fetch);
    const results = await Promise.all([session.getAccessToken(), session.getAccessToken(), session.getAccessToken()]);
    expect(results).toEqual([fresh, fresh, fresh]);
    expect(names).toEqual(['gatehouse-refresh-proj']);
    expect(fetch.requests).toHaveLength(1);
  });

  it('reads the store again inside the lock and skips the refresh another tab already made', async () => {
    const store = createMemoryTokenStore({ accessToken: await inSeconds(5), refreshToken: 'rt-1' });
    const fromOtherTab = await inSeconds(600);
    const fetch = fakeFetch(() => jsonResponse({ access_token: 'unused' }));
    // The other tab held the lock and wrote its new token to the shared store meanwhile.
    const { locks } = fakeLocks(() => store.set({ accessToken: fromOtherTab, refreshToken: 'rt-1' }));
    const session = sessionWith(store, { locks }, fetch);
    expect(await session.getAccessToken()).toBe(fromOtherTab);
    expect(fetch.requests).toHaveLength(0);
  });

  it('refreshes again in the lock when the stored token is the rejected one', async () => {
    const rejected = await inSeconds(300);
    const fresh = await inSeconds(600);
    const store = createMemoryTokenStore({ accessToken: rejected, refreshToken: 'rt-1' });
    const fetch = fakeFetch(() => jsonResponse({ access_token: fresh }));
    const session = sessionWith(store, { locks: fakeLocks().locks }, fetch);
    session.markAccessTokenExpired(rejected);
    expect(await session.refresh()).toBe(fresh);
    expect(fetch.requests).toHaveLength(1);
  });

  it('announces a refresh over BroadcastChannel, and another tab adopts it instead of refreshing', async () => {
    const channels = fakeChannels();
    const fresh = await inSeconds(600);
    const expiring = await inSeconds(5);
    const fetchA = fakeFetch(
      () => new Promise<Response>((resolve) => setTimeout(() => resolve(jsonResponse({ access_token: fresh })), 100)),
    );
    const fetchB = fakeFetch(() => jsonResponse({ access_token: 'tab-b-token' }));
    const tabA = sessionWith(
      createMemoryTokenStore({ accessToken: expiring, refreshToken: 'rt-1' }),
      { locks: null, broadcastChannel: channels.create },
      fetchA,
    );
    const tabB = sessionWith(
      createMemoryTokenStore({ accessToken: expiring, refreshToken: 'rt-1' }),
      { locks: null, broadcastChannel: channels.create },
      fetchB,
    );

    const a = tabA.getAccessToken();
    await vi.advanceTimersByTimeAsync(10);
    // Tab B heard "refreshing" and waits for the outcome rather than refreshing too.
    const b = tabB.getAccessToken();
    await vi.advanceTimersByTimeAsync(100);
    expect(await a).toBe(fresh);
    expect(await b).toBe(fresh);
    expect(fetchA.requests).toHaveLength(1);
    expect(fetchB.requests).toHaveLength(0);
    expect(tabB.getTokens()).toEqual({ accessToken: fresh, refreshToken: 'rt-1' });
    expect(channels.posted).toEqual([{ type: 'refreshing' }, { type: 'refreshed', refreshToken: 'rt-1', accessToken: fresh }]);
  });

  it('lets a waiting tab refresh itself when the announced refresh fails, or after 10 s of silence', async () => {
    const channels = fakeChannels();
    const fresh = await inSeconds(600);
    const failing = fakeFetch(
      () => new Promise<Response>((_resolve, reject) => setTimeout(() => reject(new TypeError('fetch failed')), 100)),
    );
    const working = fakeFetch(() => jsonResponse({ access_token: fresh }));
    const crossTab = { locks: null, broadcastChannel: channels.create };
    const tabA = sessionWith(createMemoryTokenStore({ refreshToken: 'rt-1' }), crossTab, failing);
    const tabB = sessionWith(createMemoryTokenStore({ refreshToken: 'rt-1' }), crossTab, working);

    const a = tabA.refresh().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(10);
    const b = tabB.refresh();
    await vi.advanceTimersByTimeAsync(50);
    expect(working.requests).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(50);
    expect(await a).toBeInstanceOf(Error);
    expect(await b).toBe(fresh);
    expect(channels.posted).toContainEqual({ type: 'refresh-failed' });

    // A tab that announced and then vanished holds the others back for 10 s at most.
    const silent = channels.create('gatehouse-refresh-proj');
    silent.postMessage({ type: 'refreshing' });
    await vi.advanceTimersByTimeAsync(0);
    tabB.markAccessTokenExpired(fresh);
    const late = tabB.refresh();
    await vi.advanceTimersByTimeAsync(9_999);
    expect(working.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await late).toBe(fresh);
    expect(working.requests).toHaveLength(2);
  });

  it('ignores announcements about another session', async () => {
    const channels = fakeChannels();
    const fresh = await inSeconds(600);
    const fetchA = fakeFetch(() => jsonResponse({ access_token: fresh }));
    const tabA = sessionWith(createMemoryTokenStore({ refreshToken: 'rt-a' }), { locks: null, broadcastChannel: channels.create }, fetchA);
    const tabB = sessionWith(createMemoryTokenStore({ refreshToken: 'rt-b' }), { locks: null, broadcastChannel: channels.create }, fetchA);
    await tabA.refresh();
    await vi.advanceTimersByTimeAsync(0);
    expect(tabB.getTokens()).toEqual({ refreshToken: 'rt-b' });
  });

  it('lets a sign-out during a refresh win over the refresh result', async () => {
    const fresh = await inSeconds(600);
    const fetch = fakeFetch(
      () => new Promise<Response>((resolve) => setTimeout(() => resolve(jsonResponse({ access_token: fresh })), 100)),
    );
    const session = sessionWith(createMemoryTokenStore({ refreshToken: 'rt-1' }), { locks: null, broadcastChannel: null }, fetch);
    const pending = session.refresh();
    session.signOut();
    await vi.advanceTimersByTimeAsync(100);
    expect(await pending).toBeUndefined();
    expect(session.isInvalid).toBe(true);
  });

  it('forwards changes a store reports from another tab to subscribers', () => {
    let foreign: ((tokens: { refreshToken?: string }) => void) | undefined;
    const base = createMemoryTokenStore();
    const store: TokenStore = {
      ...base,
      subscribe: (listener) => {
        foreign = listener;
        return () => {};
      },
    };
    const session = sessionWith(
      store,
      { locks: null, broadcastChannel: null },
      fakeFetch(() => jsonResponse({})),
    );
    const seen: unknown[] = [];
    session.subscribe((tokens) => seen.push(tokens));
    base.set({ refreshToken: 'rt-other-tab' });
    foreign?.({ refreshToken: 'rt-other-tab' });
    expect(seen).toEqual([{ refreshToken: 'rt-other-tab' }]);
    expect(session.isInvalid).toBe(false);
  });
});
