import type { Generated, Selectable } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** A user's email; the primary one is copied onto project_user by a trigger (migration 0004). */
export interface ContactChannelTable {
  id: string;
  project_id: ProjectIdColumn;
  user_id: string;
  type: Generated<string>;
  value: string;
  is_verified: Generated<boolean>;
  is_primary: Generated<boolean>;
  used_for_auth: Generated<boolean>;
  created_at: Generated<Date>;
}

export type ContactChannelRow = Selectable<ContactChannelTable>;

declare module '../../../db/schema.ts' {
  interface Database {
    contact_channel: ContactChannelTable;
  }
}
