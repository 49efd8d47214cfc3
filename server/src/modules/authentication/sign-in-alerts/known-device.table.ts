import type { Generated } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** A device a user has signed in from (`deviceFingerprint`: browser and OS family, kind, country). */
export interface KnownDeviceTable {
  project_id: ProjectIdColumn;
  user_id: string;
  fingerprint: string;
  first_seen_at: Generated<Date>;
  last_seen_at: Generated<Date>;
}

declare module '../../../db/schema.ts' {
  interface Database {
    known_device: KnownDeviceTable;
  }
}
