import type { Generated } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** A user's choice for one email notification category (categories are fixed in code). */
export interface NotificationPreferenceTable {
  project_id: ProjectIdColumn;
  user_id: string;
  notification_category_id: string;
  enabled: boolean;
  updated_at: Generated<Date>;
}

declare module '../../../db/schema.ts' {
  interface Database {
    notification_preference: NotificationPreferenceTable;
  }
}
