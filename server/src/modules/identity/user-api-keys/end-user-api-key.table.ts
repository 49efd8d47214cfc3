import type { Generated, Selectable } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

export interface EndUserApiKeyTable {
  id: string;
  project_id: ProjectIdColumn;
  type: 'user' | 'team';
  user_id: string | null;
  team_id: string | null;
  description: string;
  is_public: Generated<boolean>;
  created_at: Generated<Date>;
  expires_at: Date | null;
  manually_revoked_at: Date | null;
  key_hash: string;
  last_four: string;
}

export type EndUserApiKeyRow = Selectable<EndUserApiKeyTable>;

declare module '../../../db/schema.ts' {
  interface Database {
    end_user_api_key: EndUserApiKeyTable;
  }
}
