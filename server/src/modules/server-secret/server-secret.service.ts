import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { loadOrCreateServerSecret } from './server-secret.repository.ts';

/** `SERVER_SECRET` when configured (so several instances share it), else the database's own. */
export async function resolveServerSecret(db: Kysely<Database>, configured?: string): Promise<Buffer> {
  if (configured) {
    if (configured.length < 32) throw new Error('SERVER_SECRET must be at least 32 characters');
    return createHash('sha256').update(configured).digest();
  }
  return loadOrCreateServerSecret(db);
}
