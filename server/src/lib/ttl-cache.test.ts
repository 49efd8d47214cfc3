import { afterEach, describe, expect, it, vi } from 'vitest';
import { TtlCache } from './ttl-cache.ts';

describe('TtlCache', () => {
  afterEach(() => vi.useRealTimers());

  it('forgets entries after their lifetime, the cache-wide one or their own', () => {
    vi.useFakeTimers();
    const cache = new TtlCache<string, number>(1_000);
    cache.set('short', 1);
    cache.set('long', 2, 5_000);
    // lru-cache: an entry is stale once strictly older than its lifetime.
    vi.advanceTimersByTime(1_001);
    expect(cache.get('short')).toBeUndefined();
    expect(cache.get('long')).toBe(2);
    vi.advanceTimersByTime(4_000);
    expect(cache.get('long')).toBeUndefined();
  });

  it('shrinks back to its live entries as it is written, even when expired ones are never read again', () => {
    vi.useFakeTimers();
    const cache = new TtlCache<number, number>(1_000, 10_000);
    for (let key = 0; key < 5_000; key++) cache.set(key, key);
    expect(cache.size).toBe(5_000);
    vi.advanceTimersByTime(1_001);
    // A steady writer (one entry per step, each living 1 s): the expired 5 000 go at the next sweep.
    for (let key = 5_000; key < 7_000; key++) cache.set(key, key);
    expect(cache.size).toBe(2_000);
    vi.advanceTimersByTime(1_001);
    for (let key = 7_000; key < 7_500; key++) cache.set(key, key);
    expect(cache.size).toBeLessThanOrEqual(500 + 2_000 - 3 * 500);
    expect(cache.get(7_499)).toBe(7_499);
  });

  it('when full, evicts the oldest entry not read since, like an LRU', () => {
    const cache = new TtlCache<string, number>(60_000, 3);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    cache.get('a');
    cache.set('d', 4);
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.get('d')]).toEqual([1, undefined, 3, 4]);
    expect(cache.size).toBe(3);
  });

  it('does not keep what a load read before an invalidation that overtook it', async () => {
    const cache = new TtlCache<string, string>(60_000);
    let finishLoad: (value: string) => void = () => {};
    const loading = cache.getOrLoad('project', () => new Promise((resolve) => (finishLoad = resolve)));
    cache.delete('project'); // a write committed while the row was being read
    finishLoad('row as it was');
    expect(await loading).toBe('row as it was');
    expect(cache.get('project')).toBeUndefined();
    expect(await cache.getOrLoad('project', async () => 'row as it is')).toBe('row as it is');
    expect(cache.get('project')).toBe('row as it is');
  });

  it('caches nothing when a load throws', async () => {
    const cache = new TtlCache<string, string>(60_000);
    await expect(cache.getOrLoad('key', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(cache.get('key')).toBeUndefined();
  });

  it('merges concurrent loads of one key into one load', async () => {
    const cache = new TtlCache<string, string | null>(60_000);
    let loads = 0;
    const load = async () => {
      loads += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return null;
    };
    const answers = await Promise.all(Array.from({ length: 10 }, () => cache.getOrLoad('missing row', load)));
    expect(answers).toEqual(Array(10).fill(null));
    expect(loads).toBe(1);
    expect(await cache.getOrLoad('missing row', load)).toBeNull();
    expect(loads).toBe(1);
  });
});
