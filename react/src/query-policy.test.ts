import { MutationObserver, onlineManager, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createGatehouseQueryClient } from './query-policy.ts';

/** The SDK's cache policy, observed through React Query's own observers (what the hooks use). */
describe('the Gatehouse cache policy', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const counter = () => {
    let calls = 0;
    const queryFn = async () => {
      calls += 1;
      return calls;
    };
    return { queryFn, calls: () => calls };
  };

  it('serves a value younger than 300 ms from the cache and refetches an older one', async () => {
    const client = createGatehouseQueryClient();
    const { queryFn, calls } = counter();
    const options = { queryKey: ['/users/me'], queryFn };
    await client.fetchQuery(options);
    await vi.advanceTimersByTimeAsync(299);
    await client.fetchQuery(options);
    expect(calls()).toBe(1);
    await vi.advanceTimersByTimeAsync(2);
    expect(await client.fetchQuery(options)).toBe(2);
  });

  it('runs one fetch at a time for however many callers', async () => {
    const client = createGatehouseQueryClient();
    let resolve: (value: string) => void = () => {};
    let calls = 0;
    const queryFn = () => {
      calls += 1;
      return new Promise<string>((done) => {
        resolve = done;
      });
    };
    const pending = Array.from({ length: 20 }, () => client.fetchQuery({ queryKey: ['/teams'], queryFn }));
    resolve('teams');
    expect(await Promise.all(pending)).toEqual(Array(20).fill('teams'));
    expect(calls).toBe(1);
  });

  it('drops a value 5 s after its last subscriber leaves, not before', async () => {
    const client = createGatehouseQueryClient();
    const { queryFn } = counter();
    const observer = new QueryObserver(client, { queryKey: ['/sessions'], queryFn });
    const unsubscribe = observer.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(10);
    expect(client.getQueryData(['/sessions'])).toBe(1);
    unsubscribe();
    await vi.advanceTimersByTimeAsync(4_990);
    expect(client.getQueryData(['/sessions'])).toBe(1);
    await vi.advanceTimersByTimeAsync(20);
    expect(client.getQueryCache().find({ queryKey: ['/sessions'] })).toBeUndefined();
  });

  it('runs queries and mutations while the browser is offline (the client words the failure), never pausing them', async () => {
    onlineManager.setOnline(false);
    try {
      const client = createGatehouseQueryClient();
      const offline = new Error('You are offline. Please check your internet connection and try again.');
      const mutation = new MutationObserver(client, {
        mutationFn: async () => {
          throw offline;
        },
      });
      await expect(mutation.mutate()).rejects.toBe(offline);
      expect(mutation.getCurrentResult().isPaused).toBe(false);
      let calls = 0;
      await expect(
        client.fetchQuery({
          queryKey: ['/users/me'],
          queryFn: async () => {
            calls += 1;
            throw offline;
          },
        }),
      ).rejects.toBe(offline);
      expect(calls).toBe(1);
    } finally {
      onlineManager.setOnline(true);
    }
  });

  it('leaves retrying to the client middleware', async () => {
    const client = createGatehouseQueryClient();
    let calls = 0;
    await expect(
      client.fetchQuery({
        queryKey: ['/fails'],
        queryFn: async () => {
          calls += 1;
          throw new Error('no');
        },
      }),
    ).rejects.toThrow('no');
    expect(calls).toBe(1);
  });
});
