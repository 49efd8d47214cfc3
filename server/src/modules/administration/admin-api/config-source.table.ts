import type { ColumnType } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** Where a project's config override came from (`PUT /internal/config/override/{level}` with `source`); no row: unlinked. */
export interface ProjectConfigSourceTable {
  project_id: ProjectIdColumn;
  /** The spec's ConfigSource, as given. */
  source: ColumnType<Record<string, unknown>, string, string>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

declare module '../../../db/schema.ts' {
  interface Database {
    project_config_source: ProjectConfigSourceTable;
  }
}
