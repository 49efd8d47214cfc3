import type { ColumnType, Generated, Selectable } from 'kysely';
import type { JsonColumn } from '../db/column-types.ts';
import type { ProjectIdColumn } from './project.table.ts';

/** A user of a project (the principal every feature acts for). */
export interface UserTable {
  id: string;
  project_id: ProjectIdColumn;
  display_name: string | null;
  profile_image_url: string | null;
  signed_up_at: Generated<Date>;
  last_active_at: Generated<Date>;
  client_metadata: JsonColumn;
  client_read_only_metadata: JsonColumn;
  server_metadata: JsonColumn;
  is_anonymous: Generated<boolean>;
  password_hash: string | null;
  otp_auth_enabled: Generated<boolean>;
  totp_secret: Buffer | null;
  selected_team_id: string | null;
  restricted_by_admin: Generated<boolean>;
  restricted_by_admin_reason: string | null;
  restricted_by_admin_private_details: string | null;
  country_code: string | null;
  risk_scores: JsonColumn;
  /** The user's own language (a `Language` tag, Gatehouse's own); null: the project's default language. */
  language: ColumnType<string | null, string | null | undefined, string | null | undefined>;
  /** How the user signed up: password, otp, oauth, anonymous, server (metrics). */
  sign_up_method: string | null;
  /** Copies of the primary contact channel, kept by a trigger (migration 0004); never written by code. */
  primary_email: ColumnType<string | null, never, never>;
  primary_email_verified: ColumnType<boolean | null, never, never>;
  primary_email_auth_enabled: ColumnType<boolean | null, never, never>;
  /** Whether the user has a passkey, kept by a trigger on passkey (migration 0013); never written by code. */
  has_passkey: ColumnType<boolean, never, never>;
}

export type UserRow = Selectable<UserTable>;

declare module '../db/schema.ts' {
  interface Database {
    project_user: UserTable;
  }
}
