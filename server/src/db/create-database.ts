import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type DatabaseConnection, type Dialect, type Driver, Kysely, PostgresDialect, type QueryResult } from 'kysely';
import { KyselyPGlite } from 'kysely-pglite';
import { PreparedStatementsPool } from './prepared-statements-pool.ts';
import type { Database } from './schema.ts';

export type DatabaseHandle = { db: Kysely<Database>; kind: 'postgres' | 'pglite'; location: string; close: () => Promise<void> };

/**
 * `DATABASE_URL` selects a real Postgres server (pooled `pg`); otherwise an embedded PGlite lives in
 * `<dataDir>/pglite`. Both run the same migrations and SQL.
 */
export async function createDatabase(options: { databaseUrl?: string; dataDir: string; poolSize?: number }): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new PreparedStatementsPool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const location = new URL(options.databaseUrl).host + new URL(options.databaseUrl).pathname;
    return { db, kind: 'postgres', location, close: () => db.destroy() };
  }
  const directory = join(options.dataDir, 'pglite');
  mkdirSync(directory, { recursive: true });
  const { dialect } = await KyselyPGlite.create(directory);
  const db = new Kysely<Database>({ dialect: withRowCounts(dialect) });
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
