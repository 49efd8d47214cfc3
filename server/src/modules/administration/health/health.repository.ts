import { sql } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';

/**
 * The names of the migrations the database has run (Kysely's own bookkeeping table), or none when
 * the table does not exist yet. One short statement: the readiness probe runs it on every call.
 */
export async function listAppliedMigrationsAcrossProjects(db: DbHandle): Promise<string[]> {
  const result = await sql<{ name: string }>`select name from kysely_migration`.execute(kyselyOf(db)).catch((error: unknown) => {
    // 42P01: the table does not exist (a database nothing has migrated yet).
    if ((error as { code?: string }).code === '42P01') return { rows: [] as Array<{ name: string }> };
    throw error;
  });
  return result.rows.map((row) => row.name);
}
