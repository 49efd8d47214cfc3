import type { Generated } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** One stored value (see migrations/0042-data-vault.ts). */
export interface DataVaultEntryTable {
  project_id: ProjectIdColumn;
  /** HMAC (per-project key) of the store id and the client's hashed key. */
  slot: string;
  /** The client's encrypted value, sealed with AES-256-GCM under the project's key: base64 of iv, tag, ciphertext. */
  sealed_value: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

declare module '../../../db/schema.ts' {
  interface Database {
    data_vault_entry: DataVaultEntryTable;
  }
}
