import { exportJWK, generateKeyPair } from 'jose';
import { randomUUID } from 'node:crypto';
import type { DbHandle } from '../../../db/handle.ts';
import type { AtRestCipher } from '../../../lib/at-rest-cipher.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import { insertKey, listKeys, retireKeysExcept } from './provider-store.repository.ts';

/** Keys rotated out stay published this long, past the life of every token they signed (1 hour). */
const retiredKeysPublishedMs = 2 * 24 * 3600 * 1000;
const keyPlace = (projectId: ProjectId, kid: string) => `oauth_provider_key:${projectId}:${kid}`;

/**
 * The provider's ES256 keys of one project: the newest unretired key signs; retired ones still verify for two
 * days. Unlike the access-token keys (derived, never stored), these rotate, so each is random and stored sealed.
 */
export async function providerKeys(db: DbHandle, cipher: AtRestCipher, projectId: ProjectId): Promise<Record<string, unknown>[]> {
  let rows = await listKeys(db, projectId);
  if (!rows.some((row) => row.retired_at === null)) {
    await addSigningKey(db, cipher, projectId);
    rows = await listKeys(db, projectId);
  }
  const now = Date.now();
  const active = rows.filter((row) => row.retired_at === null);
  const retired = rows.filter((row) => row.retired_at !== null && now - row.retired_at.getTime() < retiredKeysPublishedMs);
  return [...active, ...retired].map(
    (row) => JSON.parse(cipher.open(row.private_jwk, keyPlace(projectId, row.kid))) as Record<string, unknown>,
  );
}

/** A new signing key; the others are retired (still published for verification). */
export async function rotateSigningKey(db: DbHandle, cipher: AtRestCipher, projectId: ProjectId): Promise<void> {
  const kid = await addSigningKey(db, cipher, projectId);
  await retireKeysExcept(db, projectId, kid);
}

async function addSigningKey(db: DbHandle, cipher: AtRestCipher, projectId: ProjectId): Promise<string> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = randomUUID();
  const jwk = { ...(await exportJWK(privateKey)), kid, alg: 'ES256', use: 'sig' };
  await insertKey(db, projectId, kid, cipher.seal(JSON.stringify(jwk), keyPlace(projectId, kid)));
  return kid;
}
