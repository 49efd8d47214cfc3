import type { DbHandle } from '../../../db/handle.ts';
import type { AtRestCipher } from '../../../lib/at-rest-cipher.ts';
import { configSecretsCurrent, openConfigSecrets, sealConfigSecrets } from './config-secret-sealing.ts';
import { listOverridesNamingSecretsAcrossProjects, replaceOverrideIfUnchanged } from './project.repository.ts';

/**
 * The upgrade's migration of config secrets: seals the ones still in clear (written before sealing
 * existed) or under an older key (after ENCRYPTION_KEY rotated). Only overrides that name a secret
 * key are read; each is written back only if unchanged meanwhile. The number of projects sealed again.
 */
export async function resealConfigSecrets(db: DbHandle, cipher: AtRestCipher, changed: (id: string) => Promise<void>): Promise<number> {
  let count = 0;
  for (const row of await listOverridesNamingSecretsAcrossProjects(db)) {
    if (configSecretsCurrent(cipher, row.config_override)) continue;
    const sealed = sealConfigSecrets(cipher, openConfigSecrets(cipher, row.config_override));
    if (await replaceOverrideIfUnchanged(db, row.id, row.config_override, sealed)) {
      count++;
      await changed(row.id);
    }
  }
  return count;
}
