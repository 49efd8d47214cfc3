import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { type DatabaseHandle, createDatabase } from './create-database.ts';

/**
 * The pool's connections run parameterised statements as named prepared statements (planned once per
 * connection), and a statement whose cached plan a schema change made stale still answers. One
 * connection, so every statement below runs in the session whose `pg_prepared_statements` is read.
 */
const table = `prepared_test_${randomBytes(4).toString('hex')}`;
let database: DatabaseHandle;

beforeAll(async () => {
  database = await createDatabase({ databaseUrl: inject('databaseUrl'), dataDir: '', poolSize: 1 });
  await sql`create table ${sql.table(table)} (id int primary key, value text not null)`.execute(database.db);
  await sql`insert into ${sql.table(table)} (id, value) values (${1}, ${'one'})`.execute(database.db);
});
afterAll(async () => {
  await sql`drop table if exists ${sql.table(table)}`.execute(database.db);
  await database.close();
});

const prepared = async () =>
  (
    await sql<{
      name: string;
      statement: string;
    }>`select name, statement from pg_prepared_statements where statement like ${`%${table}%`}`.execute(database.db)
  ).rows;

it('prepares a parameterised statement once per connection and reuses it', async () => {
  const select = () =>
    database.db
      .selectFrom(table as never)
      .selectAll()
      .where('id' as never, '=', 1 as never)
      .execute();
  expect(await select()).toEqual([{ id: 1, value: 'one' }]);
  expect(await select()).toEqual([{ id: 1, value: 'one' }]);
  const statements = (await prepared()).filter((row) => row.statement.startsWith('select * from'));
  expect(statements).toHaveLength(1);
  expect(statements[0]?.name).toMatch(/^s_[\w-]{27}$/);
  // A statement without parameters (here DDL) is not prepared.
  expect((await prepared()).some((row) => row.statement.startsWith('create table'))).toBe(false);
});

it('runs a statement unprepared when a schema change made its cached plan stale', async () => {
  const select = () => sql<Record<string, unknown>>`select * from ${sql.table(table)} where id = ${1}`.execute(database.db);
  expect((await select()).rows).toEqual([{ id: 1, value: 'one' }]);
  expect((await prepared()).map((row) => row.statement)).toContain(`select * from "${table}" where id = $1`);
  await sql`alter table ${sql.table(table)} add column extra text not null default 'added'`.execute(database.db);
  // Postgres refuses the prepared plan ("cached plan must not change result type"); the call still answers.
  expect((await select()).rows).toEqual([{ id: 1, value: 'one', extra: 'added' }]);
});
