import type { ColumnType, Generated, Selectable } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** A WebAuthn credential; ids and user handles base64url as the browser sends them, the rp id a hostname. */
export interface PasskeyTable {
  id: string;
  project_id: ProjectIdColumn;
  user_id: string;
  credential_id: string;
  /** The COSE public key from the attestation. */
  public_key: Buffer;
  /** The authenticator's signature counter (0 for authenticators without one); int8, which pg reads as a string. */
  counter: ColumnType<string | number | bigint, number | undefined, number>;
  transports: ColumnType<string[], string | undefined, string>;
  user_handle: string;
  rp_id: string;
  device_type: string;
  backed_up: boolean;
  created_at: Generated<Date>;
  last_used_at: Date | null;
}

export type PasskeyRow = Selectable<PasskeyTable>;

declare module '../../../db/schema.ts' {
  interface Database {
    passkey: PasskeyTable;
  }
}
