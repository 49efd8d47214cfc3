import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Kysely, PostgresDialect } from 'kysely';
import { startupMark } from '../lib/startup-trace.ts';
import { pgliteDialect } from './pglite-dialect.ts';
import { releasingLostConnections } from './lost-connections.ts';
import { registerPool } from './pool-stats.ts';
import { createPreparedStatementsPool } from './prepared-statements-pool.ts';
import type { Database } from './schema.ts';
import { scopedDialect } from './transaction-scope.ts';
import { readIntegerSetting, settingNumber } from '../config/settings.ts';

export type DatabaseHandle = { db: Kysely<Database>; kind: 'postgres' | 'pglite'; location: string; close: () => Promise<void> };

/** Defaults of `DATABASE_POOL_SIZE`, `DATABASE_ACQUIRE_TIMEOUT_MS` and `DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS`. */
export const defaultPoolSize = settingNumber('DATABASE_POOL_SIZE');
export const defaultAcquireTimeoutMs = settingNumber('DATABASE_ACQUIRE_TIMEOUT_MS');
export const defaultIdleInTransactionTimeoutMs = settingNumber('DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS');
/** The pool's `application_name` in `pg_stat_activity` (the cache listener's is `gatehouse-cache-listener`); DATABASE_URL's `?application_name=` wins. */
export const poolApplicationName = 'gatehouse';
/** pg-pool's error when no client became free within connectionTimeoutMillis. */
const poolTimeoutMessage = 'timeout exceeded when trying to connect';

/**
 * `DATABASE_URL` selects a real Postgres server (pooled `pg`, `poolSize` connections); otherwise an
 * embedded PGlite lives in `<dataDir>/pglite` (one session, used by one caller at a time). Both run
 * the same migrations and SQL. Queries inside a transaction use its connection whatever handle they
 * go through (transaction-scope.ts); a caller waiting longer than `acquireTimeoutMs` for a connection
 * gets DATABASE_BUSY (503) instead of waiting forever.
 *
 * On Postgres every session of the pool has `idle_in_transaction_session_timeout` set to
 * `idleInTransactionTimeoutMs` (0: off): no server transaction waits on anything but the database, so
 * one left open that long without a statement is a defect (an awaited outside call, a promise that
 * never settles). Postgres then ends the session, which rolls the transaction back and frees its locks,
 * and the pool replaces the connection (lost-connections.ts) instead of lending one short forever.
 */
export async function createDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  acquireTimeoutMs?: number;
  idleInTransactionTimeoutMs?: number;
  /** Hears a pooled connection Postgres or the network ended (the pool replaces it). */
  onConnectionLost?: (error: Error) => void;
}): Promise<DatabaseHandle> {
  const acquireTimeoutMs = options.acquireTimeoutMs ?? defaultAcquireTimeoutMs;
  if (options.databaseUrl) {
    const idleInTransactionTimeoutMs = options.idleInTransactionTimeoutMs ?? defaultIdleInTransactionTimeoutMs;
    const pool = await createPreparedStatementsPool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? defaultPoolSize,
      connectionTimeoutMillis: acquireTimeoutMs,
      application_name: poolApplicationName,
      ...(idleInTransactionTimeoutMs > 0 ? { idle_in_transaction_session_timeout: idleInTransactionTimeoutMs } : {}),
    });
    const dialect = scopedDialect(new PostgresDialect({ pool: releasingLostConnections(pool, options.onConnectionLost ?? (() => {})) }), {
      acquireTimeoutMs,
      exclusive: false,
      isAcquireTimeout: (error) => error instanceof Error && error.message === poolTimeoutMessage,
    });
    const db = new Kysely<Database>({ dialect });
    registerPool(db, pool);
    const location = new URL(options.databaseUrl).host + new URL(options.databaseUrl).pathname;
    return { db, kind: 'postgres', location, close: () => db.destroy() };
  }
  const directory = join(options.dataDir, 'pglite');
  mkdirSync(directory, { recursive: true });
  // Before PGlite's WebAssembly is compiled: its functions are optimised later (see pgliteTieringBudget).
  const budget = pgliteTieringBudget(process.env.PGLITE_WASM_TIERING_BUDGET);
  if (budget !== undefined) setFlagsFromString(`--wasm-tiering-budget=${budget}`);
  // Loaded only for the embedded database: a Postgres start never reads PGlite's WebAssembly.
  const { PGlite } = await import('@electric-sql/pglite');
  startupMark('pglite imported');
  const client = await PGlite.create({
    dataDir: directory,
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${pgliteSharedBuffers}`],
  });
  const db = new Kysely<Database>({ dialect: scopedDialect(pgliteDialect(client), { acquireTimeoutMs, exclusive: true }) });
  registerPool(db, { max: 1 });
  return { db, kind: 'pglite', location: directory, close: () => db.destroy() };
}

/**
 * Postgres' 128 MB of shared buffers live in PGlite's WebAssembly memory and kept the idle process at
 * about 320 MB resident; an embedded, one-session database runs fine on 16 MB (about 190 MB idle).
 */
const pgliteSharedBuffers = '16MB';

/**
 * V8 runs WebAssembly first as baseline (Liftoff) code and re-compiles a function with its optimising
 * compiler (TurboFan, on its helper threads) once it has run about this many bytes of code (V8's default:
 * 1 800 000). At that default, Postgres' own start-up (catalogue loading, the first queries) kept the
 * helper threads compiling through the whole start. Under `MALLOC_MMAP_THRESHOLD_=32768` (package.json)
 * each of their 36 KB compiler zones is a map and an unmap of its own (11 630 of them in one traced
 * start, most on the helper threads), whose page faults and unmaps slowed the main thread: issue #20's
 * start-up regression (1.30 s → 1.94 s). At 100 000 000 a start takes about 0.7 s less CPU and 40 % fewer
 * page faults; the functions a running server keeps calling still reach the budget and are optimised.
 */
export function pgliteTieringBudget(setting: string | undefined): number | undefined {
  if (setting === undefined) return settingNumber('PGLITE_WASM_TIERING_BUDGET');
  // PGLITE_WASM_TIERING_BUDGET: another budget, or empty for V8's own (to compare).
  if (setting === '') return undefined;
  return readIntegerSetting({ PGLITE_WASM_TIERING_BUDGET: setting }, 'PGLITE_WASM_TIERING_BUDGET', {
    min: 1,
    max: 9_999_999_999,
    expected: 'a positive integer',
  });
}
