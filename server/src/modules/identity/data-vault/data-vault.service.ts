import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { DataVaultStoreDoesNotExistError, DataVaultStoreHashedKeyDoesNotExistError } from '@gatehouse/protocol/errors';
import type { DbHandle } from '../../../db/handle.ts';
import { TtlCache } from '../../../lib/ttl-cache.ts';
import type { Project } from '../../../tenancy/project.ts';
import { findDataVaultValue, upsertDataVaultValue } from './data-vault.repository.ts';

type ProjectKeys = { slot: Buffer; seal: Buffer };

/**
 * The data vault's server side. Clients send a hashed key and an encrypted value (the server SDK
 * derives both from the caller's secret, so plaintext never arrives); the server adds its own layer:
 * per project, keys derived from the server secret (HKDF) address the value by a keyed hash and seal
 * it with AES-256-GCM, bound to its slot.
 */
export class DataVaultService {
  /** Derived keys per project: bounded (an LRU of 1 000 projects), derived again after an hour. */
  private readonly keys = new TtlCache<string, ProjectKeys>(60 * 60_000, 1_000);

  constructor(
    private readonly db: DbHandle,
    private readonly serverSecret: Buffer,
  ) {}

  async get(project: Project, storeId: string, hashedKey: string): Promise<string> {
    this.assertStore(project, storeId);
    const keys = this.keysOf(project.id);
    const slot = slotOf(keys, storeId, hashedKey);
    const sealed = await findDataVaultValue(this.db, project.id, slot);
    if (sealed === undefined) throw new DataVaultStoreHashedKeyDoesNotExistError({ store_id: storeId, hashed_key: hashedKey });
    return unseal(keys, slot, sealed);
  }

  async set(project: Project, storeId: string, hashedKey: string, encryptedValue: string): Promise<void> {
    this.assertStore(project, storeId);
    const keys = this.keysOf(project.id);
    const slot = slotOf(keys, storeId, hashedKey);
    await upsertDataVaultValue(this.db, project.id, slot, seal(keys, slot, encryptedValue));
  }

  private assertStore(project: Project, storeId: string): void {
    if (!Object.hasOwn(project.config.dataVault.stores, storeId)) throw new DataVaultStoreDoesNotExistError({ store_id: storeId });
  }

  private keysOf(projectId: string): ProjectKeys {
    let keys = this.keys.get(projectId);
    if (!keys) {
      const derive = (purpose: string) =>
        Buffer.from(hkdfSync('sha256', this.serverSecret, projectId, `gatehouse data vault ${purpose}`, 32));
      keys = { slot: derive('slot'), seal: derive('seal') };
      this.keys.set(projectId, keys);
    }
    return keys;
  }
}

const slotOf = (keys: ProjectKeys, storeId: string, hashedKey: string): string =>
  createHmac('sha256', keys.slot).update(`${storeId}\u0000${hashedKey}`).digest('base64url');

function seal(keys: ProjectKeys, slot: string, value: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.seal, iv);
  cipher.setAAD(Buffer.from(slot));
  const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

function unseal(keys: ProjectKeys, slot: string, sealed: string): string {
  const bytes = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', keys.seal, bytes.subarray(0, 12));
  decipher.setAAD(Buffer.from(slot));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}
