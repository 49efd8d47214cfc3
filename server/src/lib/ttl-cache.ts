import { LRUCache } from 'lru-cache';

/**
 * A bounded map whose entries expire, on `lru-cache` (TTL per cache or per entry, a size bound with
 * least-recently-used eviction, and `fetch`, which merges concurrent loads of one key into one).
 * Hot lookups (projects, key digests, signing keys, verified tokens) are served from memory; writers
 * call `delete`/`clear` so this instance sees its own changes at once, and other instances within
 * `ttlMs`. This file keeps only what lru-cache leaves to its user: values may be `null` (a cached
 * "no such row"), a load overtaken by an invalidation caches nothing, and expired entries that are
 * never read again are purged as the cache is written (issue #20: memory that stays flat under a soak).
 */
export class TtlCache<K extends {}, V> {
  private readonly cache: LRUCache<K, { value: V }, () => Promise<V>>;
  /** Keys being loaded: an invalidation by predicate cannot see them, so it drops them all. */
  private readonly loading = new Set<K>();
  private lastPurge = Date.now();

  constructor(
    private readonly ttlMs: number,
    maxEntries = 10_000,
  ) {
    this.cache = new LRUCache<K, { value: V }, () => Promise<V>>({
      max: maxEntries,
      ttl: ttlMs,
      // Time from Date.now (not the performance clock lru-cache captured at import), read on every check: tests move it with fake timers.
      perf: { now: () => Date.now() },
      ttlResolution: 0,
      // A load overtaken by `delete`/`clear` is aborted: its caller still gets what it read, the cache keeps nothing.
      ignoreFetchAbort: true,
      fetchMethod: async (_key, _stale, { context }) => ({ value: await context() }),
    });
  }

  get(key: K): V | undefined {
    return this.cache.get(key)?.value;
  }

  /** `ttlMs` overrides the cache's lifetime for this entry (a verified token lives until its expiry). */
  set(key: K, value: V, ttlMs = this.ttlMs): void {
    this.purgeStaleNow();
    this.cache.set(key, { value }, { ttl: ttlMs });
  }

  /**
   * A sweep of the expired entries at most 16 times per lifetime: a steady writer's cache stays within
   * 1/16 of what is alive, at an amortised O(1) per write.
   */
  private purgeStaleNow(): void {
    const now = Date.now();
    if (now - this.lastPurge < this.ttlMs / 16) return;
    this.lastPurge = now;
    this.cache.purgeStale();
  }

  /**
   * Returns the cached value, or loads, caches and returns it; concurrent calls for one key share one
   * load. A load that throws caches nothing, nor does one overtaken by an invalidation (it may have
   * read the row as it was before that write).
   */
  async getOrLoad(key: K, load: () => Promise<V>): Promise<V> {
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached.value;
    this.purgeStaleNow();
    this.loading.add(key);
    try {
      const loaded = await this.cache.fetch(key, { context: load });
      return (loaded as { value: V }).value;
    } finally {
      this.loading.delete(key);
    }
  }

  delete(key: K): void {
    this.cache.delete(key);
  }

  /** Deletes every entry the predicate selects (a walk over all entries: for rare invalidations). */
  deleteWhere(predicate: (key: K, value: V) => boolean): void {
    for (const key of this.loading) this.cache.delete(key);
    for (const [key, entry] of this.cache.entries()) if (predicate(key, entry.value)) this.cache.delete(key);
  }

  clear(): void {
    this.cache.clear();
  }

  get size(): number {
    return this.cache.size;
  }
}
