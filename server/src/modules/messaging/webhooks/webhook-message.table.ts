import type { Generated, Selectable } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** One event queued for one endpoint (see migrations/0041-webhook-deliveries.ts). */
export interface WebhookMessageTable {
  id: string;
  project_id: ProjectIdColumn;
  endpoint_id: string;
  /** `msg_...`, sent as `webhook-id`: the same for every endpoint of one event. */
  message_id: string;
  event_type: string;
  /** The exact body posted (and signed). */
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  /** Attempts started (a claim counts one). */
  attempts: Generated<number>;
  /** When due while pending; while claimed, when the claim's lease ends. */
  next_attempt_at: Generated<Date>;
  created_at: Generated<Date>;
  delivered_at: Date | null;
}

/** One delivery attempt of a message. */
export interface WebhookAttemptTable {
  id: Generated<string>;
  project_id: ProjectIdColumn;
  message_row_id: string;
  attempt: number;
  started_at: Date;
  succeeded: boolean;
  status_code: number | null;
  latency_millis: number;
  response_excerpt: string;
  error: string | null;
}

export type WebhookMessageRow = Selectable<WebhookMessageTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptTable>;

declare module '../../../db/schema.ts' {
  interface Database {
    webhook_message: WebhookMessageTable;
    webhook_attempt: WebhookAttemptTable;
  }
}
