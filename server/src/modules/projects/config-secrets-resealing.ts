import { sql } from 'kysely';
import { type DbHandle, kyselyOf } from '../../db/handle.ts';
import type { AtRestCipher } from '../../lib/at-rest-cipher.ts';
import { configSecretsCurrent, openConfigSecrets, sealConfigSecrets } from './config-secret-sealing.ts';

/**
 * The upgrade's migration of config secrets: seals the ones still in clear (written before sealing
 * existed) or under an older key (after ENCRYPTION_KEY rotated). Only overrides that name a secret
 * key are read; each is written back only if unchanged meanwhile. The number of projects sealed again.
 */
export async function resealConfigSecrets(db: DbHandle, cipher: AtRestCipher, changed: (id: string) => Promise<void>): Promise<number> {
  const rows = await kyselyOf(db)
    .selectFrom('project')
    .select(['id', 'config_override'])
    .where(sql<boolean>`config_override::text ~ '(password|clientSecret)"'`)
    .execute();
  let count = 0;
  for (const row of rows) {
    if (configSecretsCurrent(cipher, row.config_override)) continue;
    const sealed = sealConfigSecrets(cipher, openConfigSecrets(cipher, row.config_override));
    const result = await kyselyOf(db)
      .updateTable('project')
      .set({ config_override: JSON.stringify(sealed) })
      .where('id', '=', row.id)
      .where(sql<boolean>`config_override = ${JSON.stringify(row.config_override)}::jsonb`)
      .executeTakeFirst();
    if (result.numUpdatedRows > 0n) {
      count++;
      await changed(row.id);
    }
  }
  return count;
}
