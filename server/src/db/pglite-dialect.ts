import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';

/**
 * Kysely on an embedded PGlite: one session, so every caller shares one connection (transaction-scope.ts
 * serialises them). Written here rather than taken from kysely-pglite, whose entry module also loads a
 * code generator (kysely-codegen, jiti) that cost the start-up about half a second.
 */
export function pgliteDialect(client: PGlite): Dialect {
  const connection: DatabaseConnection = {
    executeQuery: async <Row>(query: CompiledQuery): Promise<QueryResult<Row>> => {
      const result = await client.query<Row>(query.sql, [...query.parameters]);
      // PGlite names the row count `affectedRows`; Kysely reads `numAffectedRows` (updates and deletes report it).
      return {
        rows: result.rows,
        ...(result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
      };
    },
    streamQuery: () => {
      throw new Error('PGlite does not stream query results');
    },
  };
  const driver: Driver = {
    init: async () => undefined,
    acquireConnection: async () => connection,
    beginTransaction: async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin'));
    },
    commitTransaction: async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('commit'));
    },
    rollbackTransaction: async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
    },
    releaseConnection: async () => undefined,
    destroy: () => client.close(),
  };
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => driver,
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}
