import type { ColumnType, Generated, Selectable } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** A team's SCIM directory; its bearer token is kept as a digest only. */
export interface ScimDirectoryTable {
  id: string;
  project_id: ProjectIdColumn;
  team_id: string;
  display_name: string;
  token_hash: string;
  /** The token a rotation replaced, accepted until `previous_token_expires_at` (the overlap window). */
  previous_token_hash: Generated<string | null>;
  previous_token_expires_at: Generated<Date | null>;
  token_rotated_at: Generated<Date | null>;
  created_at: Generated<Date>;
}

/** A user provisioned through a directory (a project user who is, while active, a member of the team). */
export interface ScimUserTable {
  id: string;
  directory_id: string;
  project_id: ProjectIdColumn;
  user_id: string;
  user_name: string;
  external_id: string | null;
  active: boolean;
  /** The resource as the identity provider last wrote it (extension attributes kept). */
  resource: ColumnType<Record<string, unknown>, string, string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** Soft delete: set when deprovisioned (DELETE); a deleted SCIM user is not found again. */
  deleted_at: Date | null;
}

/** A group of a directory; its members are SCIM user ids of the same directory. */
export interface ScimGroupTable {
  id: string;
  directory_id: string;
  project_id: ProjectIdColumn;
  display_name: string;
  external_id: string | null;
  member_ids: ColumnType<string[], string, string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A team permission a directory granted because of its groups (what it may revoke when no group grants it any more). */
export interface ScimPermissionGrantTable {
  directory_id: string;
  project_id: ProjectIdColumn;
  team_id: string;
  user_id: string;
  permission_id: string;
}

export type ScimDirectoryRow = Selectable<ScimDirectoryTable>;
export type ScimUserRow = Selectable<ScimUserTable>;
export type ScimGroupRow = Selectable<ScimGroupTable>;

declare module '../../../db/schema.ts' {
  interface Database {
    scim_directory: ScimDirectoryTable;
    scim_user: ScimUserTable;
    scim_group: ScimGroupTable;
    scim_permission_grant: ScimPermissionGrantTable;
  }
}
