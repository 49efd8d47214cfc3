import type { Generated, Selectable } from 'kysely';
import type { ProjectIdColumn } from '../../tenancy/project.table.ts';

export interface EmailOutboxTable {
  id: string;
  project_id: ProjectIdColumn;
  to_address: string;
  kind: string;
  subject: string;
  html: string;
  text: string;
  created_at: Generated<Date>;
  sent_at: Date | null;
  error: string | null;
  /** Set when the email was not sent on purpose (migration 0021). */
  skipped_reason: Generated<string | null>;
}

export type EmailOutboxRow = Selectable<EmailOutboxTable>;

declare module '../../db/schema.ts' {
  interface Database {
    email_outbox: EmailOutboxTable;
  }
}
