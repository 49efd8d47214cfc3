import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { JsonColumn } from '../db/column-types.ts';
import type { ProjectId } from './project-id.ts';

/** The `project_id` column of a tenant's table: read as a `ProjectId`, written from one. */
export type ProjectIdColumn = ColumnType<ProjectId, ProjectId, ProjectId>;

/** A tenant. Its rendered config is defaults + `config_override` (see project-config.ts). */
export interface ProjectTable {
  /** Chosen at creation (a UUID, or `internal`); read back as the tenant's id. */
  id: ColumnType<ProjectId, string, never>;
  display_name: string;
  description: Generated<string>;
  created_at: Generated<Date>;
  is_production_mode: Generated<boolean>;
  owner_team_id: string | null;
  is_development_environment: Generated<boolean>;
  logo_url: string | null;
  logo_full_url: string | null;
  logo_dark_mode_url: string | null;
  logo_full_dark_mode_url: string | null;
  /** The dashboard's setup step (the spec's ProjectOnboardingStatus); `completed` by default. */
  onboarding_status: Generated<string>;
  /** The setup wizard's choices (the spec's ProjectOnboardingState), or null. */
  onboarding_state: JsonColumn;
  /** The project-level config override; the rendered config is defaults + this (see project-config.ts). */
  config_override: ColumnType<Record<string, unknown>, string | undefined, string>;
}

export type ProjectRow = Selectable<ProjectTable>;
export type NewProjectRow = Insertable<ProjectTable>;

declare module '../db/schema.ts' {
  interface Database {
    project: ProjectTable;
  }
}
