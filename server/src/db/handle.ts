import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

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

/** Runs `work` in one transaction and hands it the transaction's handle. */
export function inTransaction<T>(handle: DbHandle, work: (trx: DbHandle) => Promise<T>): Promise<T> {
  return kyselyOf(handle)
    .transaction()
    .execute((trx) => work(handleOf(trx)));
}
