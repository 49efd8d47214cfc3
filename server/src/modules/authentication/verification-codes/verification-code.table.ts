import type { ColumnType, Generated, Selectable } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

export interface VerificationCodeTable {
  id: string;
  project_id: ProjectIdColumn;
  purpose: string;
  /** The last 39 characters of the code; identifies the row an OTP attempt is checked against. */
  nonce: string;
  code_hash: string;
  data: ColumnType<Record<string, unknown>, string, string>;
  attempts: Generated<number>;
  created_at: Generated<Date>;
  expires_at: Date;
  used_at: Date | null;
}

export type VerificationCodeRow = Selectable<VerificationCodeTable>;

declare module '../../../db/schema.ts' {
  interface Database {
    verification_code: VerificationCodeTable;
  }
}
