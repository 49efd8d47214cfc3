import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The one server secret row, created on first use (concurrent starts agree on the first insert). */
export async function loadOrCreateServerSecret(db: Kysely<Database>): Promise<Buffer> {
  await db
    .insertInto('server_secret')
    .values({ id: 1, secret: randomBytes(32) })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
  const row = await db.selectFrom('server_secret').select('secret').where('id', '=', 1).executeTakeFirstOrThrow();
  return Buffer.from(row.secret);
}
