import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readEnv } from '../config/env.ts';
import { type DatabaseHandle, createDatabase } from './create-database.ts';
import { handleOf, inTransaction, kyselyOf } from './handle.ts';

/**
 * The defence against a server transaction left open while its code awaits something else, on real
 * Postgres with a pool of ONE connection: every pooled session has `idle_in_transaction_session_timeout`,
 * so Postgres ends a stuck transaction (rolled back, its row locks freed); the pool then replaces the
 * connection at once (the next caller is served, not DATABASE_BUSY until the stuck code gives it back),
 * the process survives the ended session (pg emits it as an 'error' event nobody listened to), and the
 * stuck code fails on its next statement instead of hanging.
 */
const databaseUrl = (applicationName?: string) => {
  const url = new URL(inject('databaseUrl'));
  if (applicationName) url.searchParams.set('application_name', applicationName);
  return url.toString();
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('idle_in_transaction_session_timeout on the pool', () => {
  const table = `idle_tx_test_${randomBytes(4).toString('hex')}`;
  const applicationName = `gatehouse-idle-test-${randomBytes(4).toString('hex')}`;
  const lost: Error[] = [];
  let database: DatabaseHandle;
  let outsider: pg.Client;

  beforeAll(async () => {
    database = await createDatabase({
      databaseUrl: databaseUrl(applicationName),
      dataDir: '',
      poolSize: 1,
      acquireTimeoutMs: 2_000,
      idleInTransactionTimeoutMs: 300,
      onConnectionLost: (error) => lost.push(error),
    });
    outsider = new pg.Client({ connectionString: databaseUrl() });
    await outsider.connect();
    // Waiting on the stuck transaction's row lock must fail the test, not hang it.
    await outsider.query(`set lock_timeout = '3s'`);
    await sql`create table ${sql.table(table)} (id int primary key, value text not null)`.execute(database.db);
    await sql`insert into ${sql.table(table)} (id, value) values (1, 'before')`.execute(database.db);
  });
  afterAll(async () => {
    await outsider.query(`drop table if exists ${table}`);
    await outsider.end();
    await database.close();
  });

  it('sets the timeout and the application name on every pooled session (DATABASE_URL may name another)', async () => {
    const { rows } = await sql<{ timeout: string; name: string }>`
      select current_setting('idle_in_transaction_session_timeout') as timeout, current_setting('application_name') as name`.execute(
      database.db,
    );
    expect(rows[0]).toEqual({ timeout: '300ms', name: applicationName });
    const defaults = await createDatabase({ databaseUrl: databaseUrl(), dataDir: '', poolSize: 1 });
    try {
      const { rows: defaultRows } = await sql<{ timeout: string; name: string }>`
        select current_setting('idle_in_transaction_session_timeout') as timeout, current_setting('application_name') as name`.execute(
        defaults.db,
      );
      expect(defaultRows[0]).toEqual({ timeout: '10s', name: 'gatehouse' });
    } finally {
      await defaults.close();
    }
    const off = await createDatabase({ databaseUrl: databaseUrl(), dataDir: '', poolSize: 1, idleInTransactionTimeoutMs: 0 });
    try {
      const { rows: offRows } = await sql<{ timeout: string }>`
        select current_setting('idle_in_transaction_session_timeout') as timeout`.execute(off.db);
      expect(offRows[0]?.timeout).toBe('0');
    } finally {
      await off.close();
    }
  });

  it('ends a transaction stuck on something else: its lock is freed, the pool serves the next caller, the stuck code fails', async () => {
    lost.length = 0;
    let unstick = () => {};
    const stuck = new Promise<void>((resolve) => {
      unstick = resolve;
    });
    let locked = () => {};
    const holding = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const transaction = inTransaction(handleOf(database.db), async (trx) => {
      await sql`update ${sql.table(table)} set value = 'stuck' where id = 1`.execute(kyselyOf(trx));
      locked();
      // A slow outside call, a promise that never settles: the transaction waits on it, idle.
      await stuck;
      await sql`update ${sql.table(table)} set value = 'after the wait' where id = 1`.execute(kyselyOf(trx));
    });
    const settled = transaction.then(
      () => 'committed',
      (error: Error) => error,
    );
    await holding;

    // Within the timeout (300 ms) and a margin, another session takes the row lock: the transaction was ended.
    const started = Date.now();
    await outsider.query(`update ${table} set value = 'outsider' where id = 1`);
    expect(Date.now() - started).toBeLessThan(2_500);

    // The pool's only connection was the stuck one: the next caller gets a new connection, not DATABASE_BUSY.
    const { rows } = await sql<{ value: string }>`select value from ${sql.table(table)} where id = 1`.execute(database.db);
    expect(rows[0]?.value).toBe('outsider');
    expect(lost).toHaveLength(1);
    expect(lost[0]?.message).toMatch(/idle-in-transaction timeout/);

    // The stuck code resumes: its next statement fails (nothing of it was committed), no hang.
    unstick();
    const outcome = await Promise.race([settled, sleep(5_000).then(() => 'still pending')]);
    expect(outcome).toBeInstanceOf(Error);
    const after = await sql<{ value: string }>`select value from ${sql.table(table)} where id = 1`.execute(database.db);
    expect(after.rows[0]?.value).toBe('outsider');
    // And the pool still serves transactions.
    await inTransaction(handleOf(database.db), (trx) =>
      sql`update ${sql.table(table)} set value = 'next' where id = 1`.execute(kyselyOf(trx)).then(() => undefined),
    );
    expect((await sql<{ value: string }>`select value from ${sql.table(table)} where id = 1`.execute(database.db)).rows[0]?.value).toBe(
      'next',
    );
  });

  it('survives an idle pooled connection ended by Postgres (restart, pg_terminate_backend) and reconnects', async () => {
    lost.length = 0;
    await sql`select 1`.execute(database.db);
    const { rows } = await outsider.query<{ ended: boolean }>(
      'select pg_terminate_backend(pid) as ended from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()',
      [applicationName],
    );
    expect(rows.map((row) => row.ended)).toEqual([true]);
    // pg reports the ended session as an 'error' event on the idle client, then on the pool.
    await expect.poll(() => lost.length, { timeout: 3_000 }).toBeGreaterThanOrEqual(1);
    const { rows: again } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
    expect(again[0]?.one).toBe(1);
  });

  it('reads DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: milliseconds, 0 turns it off, anything else stops the start', () => {
    expect(readEnv({}).databaseIdleInTransactionTimeoutMs).toBeUndefined();
    expect(readEnv({ DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '2500' }).databaseIdleInTransactionTimeoutMs).toBe(2500);
    expect(readEnv({ DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '0' }).databaseIdleInTransactionTimeoutMs).toBe(0);
    for (const value of ['-1', '1.5', 'ten', '99999999999'])
      expect(() => readEnv({ DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: value })).toThrow(
        /DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS must be a whole number of milliseconds/,
      );
  });
});
