import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * `SERVER_SECRET` (or the file SERVER_SECRET_FILE names) when configured, so several instances share
 * it, else the database's own. A dump of the database must not mint tokens (issue #30): in production
 * (`NODE_ENV=production`) the secret comes only from the environment, and the database's row, if an
 * earlier version left one, is deleted once the configured secret is in use. `hex:` + 64 hex digits
 * is taken as the 32 bytes themselves: the value an existing row exports (the upgrade path keeps
 * every token and sealed value valid).
 */
export async function resolveServerSecret(db: Kysely<Database>, configured?: string, production = false): Promise<Buffer> {
  if (configured) {
    const secret = /^hex:[0-9a-fA-F]{64}$/.test(configured) ? Buffer.from(configured.slice(4), 'hex') : hashedSecret(configured);
    if (production) await db.deleteFrom('server_secret').execute();
    return secret;
  }
  if (production)
    throw new Error(
      'NODE_ENV=production needs SERVER_SECRET or SERVER_SECRET_FILE (32+ characters): the server secret is not kept in the database in production. ' +
        "Upgrading a database that has one: set SERVER_SECRET to the output of  psql -Atc \"select 'hex:' || encode(secret, 'hex') from server_secret\"",
    );
  return loadOrCreateServerSecret(db);
}

function hashedSecret(configured: string): Buffer {
  if (configured.length < 32) throw new Error('SERVER_SECRET must be at least 32 characters');
  return createHash('sha256').update(configured).digest();
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
