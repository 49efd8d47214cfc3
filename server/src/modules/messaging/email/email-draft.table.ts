import type { Generated, Selectable } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** An email draft of a project (migration 0020). */
export interface EmailDraftTable {
  project_id: ProjectIdColumn;
  id: string;
  display_name: string;
  tsx_source: string;
  /** `null`: the project's selected theme; `'none'`: no theme; otherwise a theme id. */
  theme: string | null;
  sent_at: Date | null;
  created_at: Generated<Date>;
}

export type EmailDraftRow = Selectable<EmailDraftTable>;

declare module '../../../db/schema.ts' {
  interface Database {
    email_draft: EmailDraftTable;
  }
}
