import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Only these can be prepared (not DDL, not transaction control, not several statements). */
const preparable = /^\s*(select|insert|update|delete|with)\b/i;
/** Postgres refuses a cached plan whose result type a migration changed: run that call unprepared. */
const cachedPlanChanged = '0A000';

/** Statement text → its name: a hot query hashes its text once, not on every call. The app has a few hundred shapes. */
const names = new Map<string, string>();
function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= 5_000) names.clear();
    name = `s_${createHash('sha1').update(text).digest('base64url')}`;
    names.set(text, name);
  }
  return name;
}

type Query = (...args: unknown[]) => unknown;

/**
 * The `Client` class the pool opens its connections with (pg-pool's `Client` option): a pg Client
 * that runs every parameterised DML statement, called as `query(text, values)` (Kysely's only form),
 * as a named prepared statement, as postgres.js does by default. Each connection then parses and
 * plans a statement shape once instead of on every call (planning a join costs ~10x its execution
 * here). Any other call (a config object, a callback, a Submittable such as a cursor, DDL) is pg's own.
 */
function preparingClient(driver: typeof pg): typeof pg.Client {
  return class PreparingClient extends driver.Client {
    // One implementation of pg's overloaded `query` (its result depends on the arguments' form).
    // biome-ignore lint/suspicious/noExplicitAny: an override must satisfy every overload of pg's declaration.
    override query(...args: unknown[]): any {
      const plain = super.query.bind(this) as Query;
      const [text, values, callback] = args;
      if (typeof text !== 'string' || !Array.isArray(values) || callback !== undefined || !preparable.test(text)) return plain(...args);
      return runNamed(driver.Query, plain, text, values).catch((error: { code?: string }) => {
        if (error?.code !== cachedPlanChanged) throw error;
        return plain(text, values);
      });
    }
  } as unknown as typeof pg.Client;
}

/**
 * Submits a named statement as a Query built from its text: given a config object instead, pg copies
 * it property by property on every call (a few percent of a simple request).
 */
function runNamed(Query: typeof pg.Query, query: Query, text: string, values: unknown[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const submitted = new Query(text, values, (error, result) => (error ? reject(error) : resolve(result)));
    (submitted as unknown as { name: string }).name = statementName(text);
    query(submitted);
  });
}

/**
 * A pg Pool whose connections prepare their statements (see `preparingClient`). `pg` is imported
 * here, on the first Postgres connection, so a process on PGlite never loads it (issue #20: idle memory).
 */
export async function createPreparedStatementsPool(config: pg.PoolConfig): Promise<pg.Pool> {
  const { default: driver } = await import('pg');
  return new driver.Pool({ ...config, Client: preparingClient(driver) });
}
