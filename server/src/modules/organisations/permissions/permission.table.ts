import type { ColumnType, Selectable } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

export interface PermissionDefinitionTable {
  project_id: ProjectIdColumn;
  scope: 'team' | 'project';
  id: string;
  description: string | null;
  contained_ids: ColumnType<string[], string[] | undefined, string[]>;
}

export interface TeamPermissionGrantTable {
  project_id: ProjectIdColumn;
  team_id: string;
  user_id: string;
  permission_id: string;
}

export interface ProjectPermissionGrantTable {
  project_id: ProjectIdColumn;
  user_id: string;
  permission_id: string;
}

/** Per permission, every permission it implies (itself included); rebuilt on every definition write. */
export interface PermissionClosureTable {
  project_id: ProjectIdColumn;
  scope: 'team' | 'project';
  id: string;
  implied_ids: string[];
}

/** Bumped with every closure rebuild of a project scope (migration 0018); absent means 0. */
export interface PermissionGraphVersionTable {
  project_id: ProjectIdColumn;
  scope: 'team' | 'project';
  version: ColumnType<string, string | number, string | number>;
}

export type PermissionDefinitionRow = Selectable<PermissionDefinitionTable>;

declare module '../../../db/schema.ts' {
  interface Database {
    permission_definition: PermissionDefinitionTable;
    team_permission_grant: TeamPermissionGrantTable;
    project_permission_grant: ProjectPermissionGrantTable;
    permission_closure: PermissionClosureTable;
    permission_graph_version: PermissionGraphVersionTable;
  }
}
