import type { Generated, Selectable } from 'kysely';
import type { JsonColumn as Json } from '../../../db/column-types.ts';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

export interface TeamTable {
  id: string;
  project_id: ProjectIdColumn;
  display_name: string;
  profile_image_url: string | null;
  client_metadata: Json;
  client_read_only_metadata: Json;
  server_metadata: Json;
  created_at: Generated<Date>;
}

/** A membership, carrying the member's team profile (separate from the user's own name and image). */
export interface TeamMemberTable {
  team_id: string;
  user_id: string;
  project_id: ProjectIdColumn;
  display_name: string | null;
  profile_image_url: string | null;
  created_at: Generated<Date>;
}

export type TeamRow = Selectable<TeamTable>;
export type TeamMemberRow = Selectable<TeamMemberTable>;

declare module '../../../db/schema.ts' {
  interface Database {
    team: TeamTable;
    team_member: TeamMemberTable;
  }
}
