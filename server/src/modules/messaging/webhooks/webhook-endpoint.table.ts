import type { ColumnType, Generated, Selectable } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** A project's webhook endpoint (see migrations/0040-webhook-endpoints.ts). */
export interface WebhookEndpointTable {
  id: string;
  project_id: ProjectIdColumn;
  url: string;
  description: string;
  /** The event types delivered; empty means all. */
  event_types: ColumnType<string[], string, string>;
  enabled: boolean;
  /** `failing` when delivery turned it off; null otherwise. */
  disabled_reason: string | null;
  /** `whsec_` + base64 of 24 random bytes. */
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  /** When its current run of failed deliveries started (null after a success). */
  failing_since: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type WebhookEndpointRow = Selectable<WebhookEndpointTable>;

declare module '../../../db/schema.ts' {
  interface Database {
    webhook_endpoint: WebhookEndpointTable;
  }
}
