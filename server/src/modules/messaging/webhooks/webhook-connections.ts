import type { Pool } from 'undici';
import { type OutboundTarget, pinnedLookup } from '../../../lib/outbound/outbound-target.ts';

/** undici, loaded at the first webhook posted (a process that posts none never holds it). */
let undiciModule: Promise<typeof import('undici')> | undefined;
export const loadUndici = () => {
  undiciModule ??= import('undici');
  return undiciModule;
};

/** Pools kept at once (one per endpoint origin and judged addresses); the oldest is closed beyond. */
const maxPools = 256;
/** An idle kept-alive connection is closed after this (receivers often close theirs after 5 s). */
const keepAliveMillis = 4_000;

/**
 * Kept-alive connections per endpoint: one undici pool per origin and the addresses its host was
 * judged to have (lib/outbound), whose sockets connect only to those addresses (`pinnedLookup`), so
 * a reused connection never reaches an address that was not judged; a host that resolves elsewhere
 * later gets a pool of its own. At most `perEndpoint` posts to one pool are on their way at once:
 * the others wait their turn before their attempt's timeout starts.
 */
export class WebhookConnections {
  private readonly pools = new Map<string, { pool: Pool; active: number; waiting: Array<() => void> }>();

  constructor(private readonly perEndpoint: number) {}

  /** Runs `post` with a pooled connection to the target, within the endpoint's cap. */
  async with<T>(url: URL, target: OutboundTarget, post: (pool: Pool) => Promise<T>): Promise<T> {
    const key = `${url.origin}|${target.addresses.map((entry) => entry.address).join(',')}`;
    let entry = this.pools.get(key);
    if (!entry) {
      const { Pool } = await loadUndici();
      entry = this.pools.get(key);
      if (!entry) {
        const pool = new Pool(url.origin, {
          connections: this.perEndpoint,
          keepAliveTimeout: keepAliveMillis,
          keepAliveMaxTimeout: keepAliveMillis,
          connect: { lookup: pinnedLookup(target) },
        });
        entry = { pool, active: 0, waiting: [] };
        this.evictBeyond(maxPools - 1);
        this.pools.set(key, entry);
      }
    }
    const slot = entry;
    if (slot.active >= this.perEndpoint) await new Promise<void>((resume) => slot.waiting.push(resume));
    else slot.active++;
    try {
      return await post(slot.pool);
    } finally {
      const next = slot.waiting.shift();
      if (next) next();
      else slot.active--;
    }
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map(({ pool }) => pool.close().catch(() => undefined)));
  }

  private evictBeyond(size: number): void {
    while (this.pools.size > size) {
      const oldest = this.pools.keys().next().value as string;
      const entry = this.pools.get(oldest);
      this.pools.delete(oldest);
      // Posts on their way finish first.
      entry?.pool.close().catch(() => undefined);
    }
  }
}
