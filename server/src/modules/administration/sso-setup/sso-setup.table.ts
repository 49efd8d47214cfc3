import type { Generated, Selectable } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** A self-serve setup link of a team; `used_at` and the session are set by its one exchange. */
export interface SsoSetupLinkTable {
  id: string;
  project_id: ProjectIdColumn;
  team_id: string;
  token_hash: string;
  created_at: Generated<Date>;
  expires_at: Date;
  revoked_at: Date | null;
  used_at: Date | null;
  session_token_hash: string | null;
  session_expires_at: Date | null;
}

export type SsoSetupLinkRow = Selectable<SsoSetupLinkTable>;

declare module '../../../db/schema.ts' {
  interface Database {
    sso_setup_link: SsoSetupLinkTable;
  }
}
