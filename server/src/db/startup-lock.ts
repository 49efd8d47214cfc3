import { sql } from 'kysely';
import type { DatabaseHandle } from './create-database.ts';

/** The key of the session advisory lock instances take while they migrate and seed (any constant; this is "gh" "start"). */
const startupLockKey = 0x6768_5374_6172n;

/**
 * Runs `work` (migrations, the server secret, the seeded projects) while holding a Postgres session
 * advisory lock, so instances started together on one database do it one after the other: the first
 * migrates and seeds, the others find everything done. The lock lives on one connection held for the
 * duration (released by Postgres if the process dies); `work` queries through the pool as usual.
 * PGlite is one process's own database: no lock (its one session must stay free for `work`).
 */
export async function withStartupLock<T>(database: DatabaseHandle, work: () => Promise<T>): Promise<T> {
  if (database.kind !== 'postgres') return work();
  return database.db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${startupLockKey})`.execute(connection);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(${startupLockKey})`.execute(connection);
    }
  });
}
