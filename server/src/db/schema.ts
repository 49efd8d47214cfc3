import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** Row types of every table (snake_case, as in SQL). One interface per table. */
export interface ServerSecretTable {
  id: Generated<number>;
  secret: Buffer;
  created_at: Generated<Date>;
}

export interface ProjectTable {
  id: string;
  display_name: string;
  description: Generated<string>;
  created_at: Generated<Date>;
  is_production_mode: Generated<boolean>;
  owner_team_id: string | null;
  /** The project-level config override; the rendered config is defaults + this (see project-config.ts). */
  config_override: ColumnType<Record<string, unknown>, string | undefined, string>;
}

export interface ApiKeySetTable {
  id: string;
  project_id: string;
  description: string;
  created_at: Generated<Date>;
  expires_at: Date;
  manually_revoked_at: Date | null;
  publishable_client_key_hash: string | null;
  publishable_client_key_last_four: string | null;
  secret_server_key_hash: string | null;
  secret_server_key_last_four: string | null;
  super_secret_admin_key_hash: string | null;
  super_secret_admin_key_last_four: string | null;
}

export interface Database {
  server_secret: ServerSecretTable;
  project: ProjectTable;
  api_key_set: ApiKeySetTable;
}

export type ProjectRow = Selectable<ProjectTable>;
export type NewProjectRow = Insertable<ProjectTable>;
export type ApiKeySetRow = Selectable<ApiKeySetTable>;
export type NewApiKeySetRow = Insertable<ApiKeySetTable>;
