import type { Generated } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** A single-use MFA recovery code, as a digest salted with the user id (see mfa/recovery-codes.ts). */
export interface MfaRecoveryCodeTable {
  id: string;
  project_id: ProjectIdColumn;
  user_id: string;
  code_hash: string;
  created_at: Generated<Date>;
  used_at: Date | null;
}

/** Per user with TOTP: the last accepted time step (no code twice) and the window of wrong attempts. */
export interface UserMfaStateTable {
  user_id: string;
  last_totp_step: number | null;
  failed_attempts: Generated<number>;
  failures_since: Date | null;
}

declare module '../../../db/schema.ts' {
  interface Database {
    mfa_recovery_code: MfaRecoveryCodeTable;
    user_mfa_state: UserMfaStateTable;
  }
}
