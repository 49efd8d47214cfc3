import type { Generated, Selectable } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** `queued` (due at next_attempt_at), `sending` (claimed; leased until next_attempt_at), `sent`, `failed` (error), `skipped` (skipped_reason). */
export type EmailOutboxStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'skipped';

/** The status in three (the spec's `EmailOutboxSimpleStatus`): may still go out, nothing left to do, did not go out. */
export type EmailOutboxSimpleStatus = 'in-progress' | 'ok' | 'error';

export const statusesOfSimpleStatus: Readonly<Record<EmailOutboxSimpleStatus, readonly EmailOutboxStatus[]>> = {
  'in-progress': ['queued', 'sending'],
  ok: ['sent', 'skipped'],
  error: ['failed'],
};

export const simpleStatusOf = (status: EmailOutboxStatus): EmailOutboxSimpleStatus =>
  status === 'queued' || status === 'sending' ? 'in-progress' : status === 'failed' ? 'error' : 'ok';

export interface EmailOutboxTable {
  id: string;
  project_id: ProjectIdColumn;
  to_address: string;
  kind: string;
  /** Empty until a batch row is rendered by the worker. */
  subject: string;
  html: string;
  text: string;
  created_at: Generated<Date>;
  sent_at: Date | null;
  /** The last delivery error (SMTP or rendering). */
  error: string | null;
  /** Set when the email was not sent on purpose (migration 0021). */
  skipped_reason: Generated<string | null>;
  /** Migration 0022. */
  status: Generated<EmailOutboxStatus>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  /** A send-email row, rendered by the worker from its batch's sources for `user_id`. */
  batch_id: Generated<string | null>;
  user_id: Generated<string | null>;
  updated_at: Generated<Date>;
}

export type EmailOutboxRow = Selectable<EmailOutboxTable>;

/** The sources of one send-email call, shared by its rows (migration 0022). */
export interface EmailSendBatchTable {
  id: string;
  project_id: ProjectIdColumn;
  template_source: string;
  theme_source: string | null;
  variables: unknown;
  subject: string | null;
  fallback_subject: string;
  notification_category_id: string;
  created_at: Generated<Date>;
}

export type EmailSendBatchRow = Selectable<EmailSendBatchTable>;

declare module '../../../db/schema.ts' {
  interface Database {
    email_outbox: EmailOutboxTable;
    email_send_batch: EmailSendBatchTable;
  }
}
