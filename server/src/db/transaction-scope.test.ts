import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseBusyError } from '@gatehouse/protocol/errors';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type DatabaseHandle, createDatabase } from './create-database.ts';
import { type DbHandle, handleOf, inTransaction, kyselyOf } from './handle.ts';

/**
 * The transaction scope (transaction-scope.ts) on both databases, with a pool of ONE connection on
 * Postgres: a query through any handle inside a transaction uses the transaction's connection (so
 * it can neither wait for a second one nor miss the transaction's writes), nested transactions are
 * savepoints, work outliving a transaction takes its own connection, PGlite's single session is
 * used by one caller at a time, and waiting longer than the acquire timeout is DATABASE_BUSY.
 */
describe.each(['postgres', 'pglite'] as const)('transaction scope on %s', (kind) => {
  let database: DatabaseHandle;
  let root: DbHandle;
  let directory: string | undefined;
  const table = `scope_test_${Math.random().toString(36).slice(2, 10)}`;
  const names = async (db: DbHandle = root) =>
    (await sql<{ name: string }>`select name from ${sql.table(table)} order by name`.execute(kyselyOf(db))).rows.map((row) => row.name);
  const insert = (db: DbHandle, name: string) => sql`insert into ${sql.table(table)} (name) values (${name})`.execute(kyselyOf(db));

  beforeAll(async () => {
    if (kind === 'pglite') directory = mkdtempSync(join(tmpdir(), 'gatehouse-scope-'));
    database =
      kind === 'postgres'
        ? await createDatabase({ databaseUrl: inject('databaseUrl'), dataDir: '', poolSize: 1, acquireTimeoutMs: 400 })
        : await createDatabase({ dataDir: directory as string, acquireTimeoutMs: 400 });
    root = handleOf(database.db);
    await sql`create table ${sql.table(table)} (name text primary key)`.execute(database.db);
  });
  afterAll(async () => {
    await sql`drop table if exists ${sql.table(table)}`.execute(database.db);
    await database.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  it('routes a query through the root handle inside a transaction to the transaction (no second connection)', async () => {
    const seen = await inTransaction(root, async (trx) => {
      await insert(trx, 'a-uncommitted');
      // Before: this waited for a second connection of a pool whose only one the transaction held.
      return names(root);
    });
    expect(seen).toEqual(['a-uncommitted']);
    await sql`delete from ${sql.table(table)}`.execute(database.db);
  });

  it('makes a nested transaction a savepoint: its failure rolls back only its own writes', async () => {
    await inTransaction(root, async (trx) => {
      await insert(trx, 'b-outer');
      await expect(
        inTransaction(root, async (inner) => {
          await insert(inner, 'b-inner');
          throw new Error('inner fails');
        }),
      ).rejects.toThrow('inner fails');
      await inTransaction(trx, (inner) => insert(inner, 'b-kept'));
      // Kysely's own transaction API inside the scope becomes a savepoint too.
      await database.db.transaction().execute((inner) => insert(handleOf(inner), 'b-kysely'));
    });
    expect(await names()).toEqual(['b-kept', 'b-kysely', 'b-outer']);
    await expect(
      inTransaction(root, async (trx) => {
        await insert(trx, 'b-rolled-back');
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    expect(await names()).toEqual(['b-kept', 'b-kysely', 'b-outer']);
    await sql`delete from ${sql.table(table)}`.execute(database.db);
  });

  it('gives work that outlives its transaction its own connection', async () => {
    let late: Promise<string[]> | undefined;
    let finish = () => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    await inTransaction(root, async (trx) => {
      await insert(trx, 'c-committed');
      late = finished.then(() => names(root));
    });
    finish();
    expect(await late).toEqual(['c-committed']);
    await sql`delete from ${sql.table(table)}`.execute(database.db);
  });

  it('keeps other callers out of an open transaction and answers DATABASE_BUSY after the acquire timeout', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let opened = () => {};
    const open = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const transaction = inTransaction(root, async (trx) => {
      await insert(trx, 'd-uncommitted');
      opened();
      await held;
      throw new Error('roll back');
    });
    await open;
    const started = Date.now();
    const outsider = names(root);
    await expect(outsider).rejects.toBeInstanceOf(DatabaseBusyError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    expect(Date.now() - started).toBeLessThan(3_000);

    // A caller that waits less than the timeout gets the connection once the transaction ends, and
    // sees nothing of the rolled-back write (on PGlite it ran inside that transaction before).
    const waiting = names(root);
    release();
    await expect(transaction).rejects.toThrow('roll back');
    expect(await waiting).toEqual([]);
  });
});
