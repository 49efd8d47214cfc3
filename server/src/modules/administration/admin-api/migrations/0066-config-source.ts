import { type Kysely, sql } from 'kysely';

/** Where a project's config override came from (GET/DELETE /internal/config/source); no row means unlinked. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table project_config_source (
      project_id text primary key references project (id) on delete cascade,
      source jsonb not null,
      updated_at timestamptz not null default now()
    )
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table project_config_source`.execute(db);
}
