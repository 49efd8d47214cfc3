import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';
import { currentScope, runInScope } from './transaction-scope.ts';

declare const opaque: unique symbol;

/**
 * The database, or an open transaction, as services hold it and pass it down: it runs no query
 * itself. Repositories (the only files besides db/ that see Kysely) open it with `kyselyOf`.
 */
export interface DbHandle {
  readonly [opaque]: 'DbHandle';
}

export const handleOf = (db: Kysely<Database>): DbHandle => db as unknown as DbHandle;

/** The Kysely instance behind a handle: for repositories and db/ only (the layer rules check it). */
export const kyselyOf = (handle: DbHandle): Kysely<Database> => handle as unknown as Kysely<Database>;

/**
 * Runs `work` in one transaction and hands it the transaction's handle. Every query made while it
 * runs, through this handle or any other of the same database, goes to the transaction's connection
 * (see transaction-scope.ts): no code inside a transaction waits for a second connection. Called
 * inside a transaction, it opens a savepoint instead (rolled back alone when `work` throws).
 * Don't run two nested `inTransaction` of one transaction concurrently (their savepoints would interleave).
 */
export async function inTransaction<T>(handle: DbHandle, work: (trx: DbHandle) => Promise<T>): Promise<T> {
  const db = kyselyOf(handle);
  const scope = currentScope();
  if (scope?.open && scope.connection) {
    const savepoint = sql.raw(`gatehouse_nested_${++scope.savepoints}`);
    await sql`savepoint ${savepoint}`.execute(db);
    try {
      const result = await work(handle);
      await sql`release savepoint ${savepoint}`.execute(db);
      return result;
    } catch (error) {
      await sql`rollback to savepoint ${savepoint}`.execute(db);
      throw error;
    }
  }
  return runInScope(() => db.transaction().execute((trx) => work(handleOf(trx))));
}
