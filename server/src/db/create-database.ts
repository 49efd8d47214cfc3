import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
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
  const db = new Kysely<Database>({ dialect });
  return { db, kind: 'pglite', location: directory, close: () => db.destroy() };
}
