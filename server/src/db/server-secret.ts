import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** `SERVER_SECRET` when configured (so several instances share it), else the database's own. */
export async function resolveServerSecret(db: Kysely<Database>, configured?: string): Promise<Buffer> {
  if (configured) {
    if (configured.length < 32) throw new Error('SERVER_SECRET must be at least 32 characters');
    return createHash('sha256').update(configured).digest();
  }
  return loadOrCreateServerSecret(db);
}

/**
 * The one server secret row, created on first use (concurrent starts agree on the first insert).
 * Read first: every later start finds it with one read instead of a write that conflicts (a write
 * transaction with its WAL flush at each start: ~25 ms of PGlite's start-up, issue #20).
 */
export async function loadOrCreateServerSecret(db: Kysely<Database>): Promise<Buffer> {
  const existing = await db.selectFrom('server_secret').select('secret').where('id', '=', 1).executeTakeFirst();
  if (existing) return Buffer.from(existing.secret);
  await db
    .insertInto('server_secret')
    .values({ id: 1, secret: randomBytes(32) })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
  const row = await db.selectFrom('server_secret').select('secret').where('id', '=', 1).executeTakeFirstOrThrow();
  return Buffer.from(row.secret);
}
