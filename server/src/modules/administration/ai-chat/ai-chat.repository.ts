import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';

/** Creates the thread, or marks its last use; `contextType` undefined keeps the recorded one. */
export async function touchAiChatThread(
  db: DbHandle,
  projectId: ProjectId,
  threadId: string,
  contextType: string | undefined,
): Promise<void> {
  const now = new Date();
  await kyselyOf(db)
    .insertInto('ai_chat_thread')
    .values({ project_id: projectId, id: threadId, context_type: contextType ?? null, updated_at: now })
    .onConflict((conflict) =>
      conflict
        .columns(['project_id', 'id'])
        .doUpdateSet(contextType === undefined ? { updated_at: now } : { updated_at: now, context_type: contextType }),
    )
    .execute();
}

export async function insertAiChatMessage(db: DbHandle, projectId: ProjectId, threadId: string, content: unknown): Promise<void> {
  await kyselyOf(db)
    .insertInto('ai_chat_message')
    .values({ project_id: projectId, thread_id: threadId, content: JSON.stringify(content) })
    .execute();
}

/** The thread's messages in the order they were saved; none for an unknown thread. */
export async function listAiChatMessageContents(db: DbHandle, projectId: ProjectId, threadId: string): Promise<unknown[]> {
  const rows = await kyselyOf(db)
    .selectFrom('ai_chat_message')
    .select('content')
    .where('project_id', '=', projectId)
    .where('thread_id', '=', threadId)
    .orderBy('seq')
    .execute();
  return rows.map((row) => row.content);
}
