import type { Generated, Insertable, Selectable } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

export interface ApiKeySetTable {
  id: string;
  project_id: ProjectIdColumn;
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

export type ApiKeySetRow = Selectable<ApiKeySetTable>;
export type NewApiKeySetRow = Insertable<ApiKeySetTable>;

declare module '../../../db/schema.ts' {
  interface Database {
    api_key_set: ApiKeySetTable;
  }
}
