import type { DbHandle } from '../../../db/handle.ts';
import type { AtRestCipher } from '../../../lib/at-rest-cipher.ts';
import { listWebhookSecretsAcrossProjects, replaceWebhookSecretsAcrossProjects } from './webhook-endpoint.repository.ts';

/**
 * Endpoint signing secrets are stored sealed (lib/at-rest-cipher.ts): sealed when written, opened
 * when read for signing or showing once. The current and the previous secret share one place (the
 * additional data), since a rotation moves the current one into `previous_secret` as it is stored.
 */
const place = 'webhook_endpoint.secret';

type WithSecrets = { secret: string; previous_secret: string | null };

export const sealWebhookSecret = (cipher: AtRestCipher, secret: string) => cipher.seal(secret, place);

export function openWebhookSecrets<Row extends WithSecrets>(cipher: AtRestCipher, row: Row): Row {
  return { ...row, secret: cipher.open(row.secret, place), previous_secret: cipher.openNullable(row.previous_secret, place) };
}

/**
 * Seals the secrets still in clear (rows written before sealing existed) or under an older key
 * (after ENCRYPTION_KEY rotated): the upgrade's migration of existing rows, run by the module's job.
 * The number of rows sealed again. (Endpoints are few per project: every row is looked at.)
 */
export async function resealWebhookSecrets(db: DbHandle, cipher: AtRestCipher): Promise<number> {
  const rows = await listWebhookSecretsAcrossProjects(db);
  let count = 0;
  for (const row of rows) {
    if (cipher.isCurrent(row.secret) && (row.previous_secret === null || cipher.isCurrent(row.previous_secret))) continue;
    const open = openWebhookSecrets(cipher, row);
    await replaceWebhookSecretsAcrossProjects(db, row, {
      secret: sealWebhookSecret(cipher, open.secret),
      previous_secret: open.previous_secret === null ? null : sealWebhookSecret(cipher, open.previous_secret),
    });
    count++;
  }
  return count;
}
