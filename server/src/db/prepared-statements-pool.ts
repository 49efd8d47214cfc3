import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Only these can be prepared (not DDL, not transaction control, not several statements). */
const preparable = /^\s*(select|insert|update|delete|with)\b/i;
/** Postgres refuses a cached plan whose result type a migration changed: run that call unprepared. */
const cachedPlanChanged = '0A000';

type QueryArguments = [text: unknown, values?: unknown, callback?: unknown];

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

/**
 * Submits a named statement as a Query built from its text: given a config object instead, pg copies
 * it property by property on every call (a few percent of a simple request).
 */
function runNamed(Query: typeof pg.Query, query: (...args: QueryArguments) => unknown, text: string, values: unknown[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const submitted = new Query(text, values, (error, result) => (error ? reject(error) : resolve(result)));
    (submitted as unknown as { name: string }).name = statementName(text);
    query(submitted);
  });
}

/**
 * A pg Pool whose clients run every parameterised DML statement as a named prepared statement, as
 * postgres.js does by default: each connection parses and plans a statement shape once, instead of
 * on every call (planning a join costs ~10x its execution here). `pg` is imported here, on the first
 * Postgres connection, so a process on PGlite never loads it (issue #20: idle memory).
 */
export async function createPreparedStatementsPool(config: pg.PoolConfig): Promise<pg.Pool> {
  const { default: driver } = await import('pg');
  const pool = new driver.Pool(config);
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: QueryArguments) => Promise<unknown>;
    (client as unknown as { query: (...args: QueryArguments) => unknown }).query = (...args: QueryArguments) => {
      const [text, values, callback] = args;
      if (typeof text !== 'string' || !Array.isArray(values) || callback !== undefined || !preparable.test(text)) return query(...args);
      return runNamed(driver.Query, query, text, values).catch((error: { code?: string }) => {
        if (error?.code !== cachedPlanChanged) throw error;
        return query(text, values);
      });
    };
  });
  return pool;
}
