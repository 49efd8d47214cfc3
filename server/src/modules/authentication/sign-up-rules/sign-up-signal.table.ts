import type { Generated } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** One sign-up attempt as the risk scores count it. */
export interface SignUpSignalTable {
  id: Generated<string>;
  project_id: ProjectIdColumn;
  ip: string | null;
  /** The IP's /24 (IPv4) or /48 (IPv6) network. */
  subnet: string | null;
  /** The email reduced for likeness (see risk-scores.ts). */
  email_skeleton: string | null;
  created_at: Generated<Date>;
}

declare module '../../../db/schema.ts' {
  interface Database {
    sign_up_signal: SignUpSignalTable;
  }
}
