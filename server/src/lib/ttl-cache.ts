/**
 * A bounded map whose entries expire. Hot lookups (projects, key digests, signing keys, verified
 * tokens) are served from memory; writers call `delete`/`clear` so this instance sees its own changes
 * at once, and other instances within `ttlMs`. When full, it evicts like an LRU by "second chance":
 * the oldest entry goes unless it was read since it was last passed over (a read costs one flag).
 * Each write also drops a few expired entries from the oldest end, so a cache whose entries are never
 * read again (a second's signatures, tokens of ended sessions) shrinks back to what is alive instead
 * of holding its maximum forever (issue #20: memory that stays flat under a soak).
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number; used: boolean }>();
  /** Bumped by every invalidation: a load that began before one must not cache what it read. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    entry.used = true;
    return entry.value;
  }

  /** `ttlMs` overrides the cache's lifetime for this entry (a verified token lives until its expiry). */
  set(key: K, value: V, ttlMs = this.ttlMs): void {
    this.entries.delete(key);
    this.dropExpired(Date.now());
    if (this.entries.size >= this.maxEntries) this.evictOne();
    this.entries.set(key, { value, expiresAt: Date.now() + ttlMs, used: false });
  }

  /** Up to 4 expired entries from the oldest end, stopping at the first live one: O(1) per write. */
  private dropExpired(now: number): void {
    for (let dropped = 0; dropped < 4; dropped++) {
      const oldest = this.entries.entries().next();
      if (oldest.done || oldest.value[1].expiresAt > now) return;
      this.entries.delete(oldest.value[0]);
    }
  }

  private evictOne(): void {
    // Map iteration is insertion order: a used entry is moved to the back once, then may go.
    for (let attempt = 0; attempt < 16; attempt++) {
      const oldest = this.entries.entries().next();
      if (oldest.done) return;
      const [key, entry] = oldest.value;
      this.entries.delete(key);
      if (!entry.used || attempt === 15) return;
      entry.used = false;
      this.entries.set(key, entry);
    }
  }

  /**
   * Returns the cached value, or loads, caches and returns it. A load that throws caches nothing, nor
   * does one overtaken by an invalidation (it may have read the row as it was before that write).
   */
  async getOrLoad(key: K, load: () => Promise<V>): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation) this.set(key, value);
    return value;
  }

  delete(key: K): void {
    this.generation++;
    this.entries.delete(key);
  }

  /** Deletes every entry the predicate selects (a walk over all entries: for rare invalidations). */
  deleteWhere(predicate: (key: K, value: V) => boolean): void {
    this.generation++;
    for (const [key, entry] of this.entries) if (predicate(key, entry.value)) this.entries.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
