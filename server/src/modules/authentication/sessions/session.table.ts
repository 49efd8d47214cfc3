import type { Generated, Selectable } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

export interface RefreshSessionTable {
  id: string;
  project_id: ProjectIdColumn;
  user_id: string;
  token_hash: string;
  created_at: Generated<Date>;
  expires_at: Date;
  last_used_at: Generated<Date>;
  last_used_ip: string | null;
  /** The user agent of the sign-in (migration 0230); null before it or when none was sent. */
  user_agent: Generated<string | null>;
  is_impersonation: Generated<boolean>;
}

/** A refresh token replaced by rotation: honoured during the grace window, reuse afterwards. */
export interface ReplacedRefreshTokenTable {
  token_hash: string;
  session_id: string;
  replaced_at: Generated<Date>;
  /** The token that replaced it, sealed under a key from this token (successor-seal.ts); null before migration 0050. */
  successor_sealed: Buffer | null;
}

export type RefreshSessionRow = Selectable<RefreshSessionTable>;

declare module '../../../db/schema.ts' {
  interface Database {
    refresh_session: RefreshSessionTable;
    replaced_refresh_token: ReplacedRefreshTokenTable;
  }
}
