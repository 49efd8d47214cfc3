import type pg from 'pg';
import type { DbHandle } from './handle.ts';

/** The connections of a database's pool right now (metrics). */
export type PoolStats = { total: number; idle: number; waiting: number; max: number };

const pools = new WeakMap<object, { stats: () => PoolStats }>();

/** Called once by `createDatabase`: the pool behind `db` (Postgres), or PGlite's one session. */
export function registerPool(db: object, pool: pg.Pool | { max: number }): void {
  if ('totalCount' in pool) {
    pools.set(db, {
      stats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 }),
    });
  } else {
    pools.set(db, { stats: () => ({ total: pool.max, idle: 0, waiting: 0, max: pool.max }) });
  }
}

/** The pool's counts, or undefined for a handle `createDatabase` did not make (a transaction's). */
export function poolStatsOf(db: DbHandle): PoolStats | undefined {
  return pools.get(db as unknown as object)?.stats();
}
