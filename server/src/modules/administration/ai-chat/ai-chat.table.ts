import type { ColumnType, Generated } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** A chat thread of a project (see migrations/0067-ai-chat.ts); its id is chosen by the client. */
export interface AiChatThreadTable {
  project_id: ProjectIdColumn;
  id: string;
  /** The context type of the thread's last answer (`email-theme`, ...); null while only messages were saved. */
  context_type: string | null;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** A saved message of a thread: any JSON value, as the SDK's chat UI keeps it. */
export interface AiChatMessageTable {
  seq: Generated<string>;
  project_id: ProjectIdColumn;
  thread_id: string;
  content: ColumnType<unknown, string, string>;
  created_at: Generated<Date>;
}

declare module '../../../db/schema.ts' {
  interface Database {
    ai_chat_thread: AiChatThreadTable;
    ai_chat_message: AiChatMessageTable;
  }
}
