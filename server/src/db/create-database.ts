import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type DatabaseConnection, type Dialect, type Driver, Kysely, PostgresDialect, type QueryResult } from 'kysely';
import { KyselyPGlite } from 'kysely-pglite';
import { registerPool } from './pool-stats.ts';
import { PreparedStatementsPool } from './prepared-statements-pool.ts';
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
    const pool = new PreparedStatementsPool({
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
  const { dialect } = await KyselyPGlite.create(directory);
  const db = new Kysely<Database>({ dialect: scopedDialect(withRowCounts(dialect), { acquireTimeoutMs, exclusive: true }) });
  registerPool(db, { max: 1 });
  return { db, kind: 'pglite', location: directory, close: () => db.destroy() };
}

/**
 * kysely-pglite hands PGlite's results to Kysely as they are, and PGlite names the row count
 * `affectedRows` where Kysely reads `numAffectedRows`: without this, every update and delete on the
 * embedded database reports 0 rows (a used-up code, a deleted team or session would look missing).
 */
function withRowCounts(dialect: Dialect): Dialect {
  const counting = (connection: DatabaseConnection): DatabaseConnection => ({
    executeQuery: async <Row>(query: Parameters<DatabaseConnection['executeQuery']>[0]) => {
      const result = (await connection.executeQuery<Row>(query)) as QueryResult<Row> & { affectedRows?: number };
      if (result.numAffectedRows !== undefined || result.affectedRows === undefined) return result;
      return { ...result, numAffectedRows: BigInt(result.affectedRows) };
    },
    streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
  });
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: (): Driver => {
      const driver = dialect.createDriver();
      return {
        init: () => driver.init(),
        acquireConnection: async () => counting(await driver.acquireConnection()),
        beginTransaction: (connection, settings) => driver.beginTransaction(connection, settings),
        commitTransaction: (connection) => driver.commitTransaction(connection),
        rollbackTransaction: (connection) => driver.rollbackTransaction(connection),
        releaseConnection: (connection) => driver.releaseConnection(connection),
        destroy: () => driver.destroy(),
      };
    },
  };
}
