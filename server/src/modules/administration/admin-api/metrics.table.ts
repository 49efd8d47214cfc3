import type { ColumnType } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** Users per sign-up method and country ('' for none), kept by triggers on project_user (migration 0015). */
export interface UserMetricsTotalTable {
  project_id: ProjectIdColumn;
  is_anonymous: boolean;
  sign_up_method: string;
  country_code: string;
  /** One of 16 per counter, picked by the writing connection (spreads the row locks). */
  shard: number;
  users: number;
}

/** Per UTC day: sign-ups, and users whose latest activity is that day; kept by triggers (migration 0015). */
export interface UserMetricsDailyTable {
  project_id: ProjectIdColumn;
  day: ColumnType<string, string, string>;
  is_anonymous: boolean;
  shard: number;
  sign_ups: number;
  last_active: number;
}

declare module '../../../db/schema.ts' {
  interface Database {
    user_metrics_total: UserMetricsTotalTable;
    user_metrics_daily: UserMetricsDailyTable;
  }
}
