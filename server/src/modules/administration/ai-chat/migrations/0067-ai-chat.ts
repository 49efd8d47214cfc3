import { type Kysely, sql } from 'kysely';

/**
 * AI chat threads of a project (`/internal/ai-chat/{thread_id}`): the thread (its id is the client's, unique within
 * the project; the context type of its last answer) and its saved messages in the order they were saved.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table ai_chat_thread (
      project_id text not null references project (id) on delete cascade,
      id text not null,
      context_type text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (project_id, id)
    )`.execute(db);
  await sql`
    create table ai_chat_message (
      seq bigint generated always as identity primary key,
      project_id text not null,
      thread_id text not null,
      content jsonb not null,
      created_at timestamptz not null default now(),
      foreign key (project_id, thread_id) references ai_chat_thread (project_id, id) on delete cascade
    )`.execute(db);
  await sql`create index ai_chat_message_thread on ai_chat_message (project_id, thread_id, seq)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table ai_chat_message`.execute(db);
  await sql`drop table ai_chat_thread`.execute(db);
}
