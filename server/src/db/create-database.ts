import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import { pgliteDialect } from './pglite-dialect.ts';
import { registerPool } from './pool-stats.ts';
import { createPreparedStatementsPool } from './prepared-statements-pool.ts';
import type { Database } from './schema.ts';
import { scopedDialect } from './transaction-scope.ts';

export type DatabaseHandle = { db: Kysely<Database>; kind: 'postgres' | 'pglite'; location: string; close: () => Promise<void> };

/** Defaults of `DATABASE_POOL_SIZE` and `DATABASE_ACQUIRE_TIMEOUT_MS`. */
export const defaultPoolSize = 10;
export const defaultAcquireTimeoutMs = 5_000;
/** pg-pool's error when no client became free within connectionTimeoutMillis. */
const poolTimeoutMessage = 'timeout exceeded when trying to connect';

/**
 * `DATABASE_URL` selects a real Postgres server (pooled `pg`, `poolSize` connections); otherwise an
 * embedded PGlite lives in `<dataDir>/pglite` (one session, used by one caller at a time). Both run
 * the same migrations and SQL. Queries inside a transaction use its connection whatever handle they
 * go through (transaction-scope.ts); a caller waiting longer than `acquireTimeoutMs` for a connection
 * gets DATABASE_BUSY (503) instead of waiting forever.
 */
export async function createDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  acquireTimeoutMs?: number;
}): Promise<DatabaseHandle> {
  const acquireTimeoutMs = options.acquireTimeoutMs ?? defaultAcquireTimeoutMs;
  if (options.databaseUrl) {
    const pool = await createPreparedStatementsPool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? defaultPoolSize,
      connectionTimeoutMillis: acquireTimeoutMs,
    });
    const dialect = scopedDialect(new PostgresDialect({ pool }), {
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
  // Loaded only for the embedded database: a Postgres start never reads PGlite's WebAssembly.
  const { PGlite } = await import('@electric-sql/pglite');
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
