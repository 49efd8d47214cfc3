import type { Generated } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** A CLI login (docs/protocol/endpoints.md §9): codes as digests; `user_id` is set when a browser user completes it. */
export interface CliLoginAttemptTable {
  id: string;
  project_id: ProjectIdColumn;
  polling_code_hash: string;
  login_code_hash: string;
  anon_session_id: string | null;
  user_id: string | null;
  created_at: Generated<Date>;
  expires_at: Date;
  completed_at: Date | null;
  used_at: Date | null;
}

declare module '../../../db/schema.ts' {
  interface Database {
    cli_login_attempt: CliLoginAttemptTable;
  }
}
