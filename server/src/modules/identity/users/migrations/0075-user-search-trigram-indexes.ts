import { type Kysely, sql } from 'kysely';

/**
 * `GET /users?query=` is a case-insensitive substring search of display names and emails: trigram
 * GIN indexes (pg_trgm) answer `ilike '%…%'` without reading every user of the project, so a search
 * among 1 000 000 users takes milliseconds (issue #20). Created only where the extension is available
 * and may be created: a Postgres server without it (and PGlite, which ships it as an optional bundle
 * the server does not load) keeps the same answers from a scan.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ usable: boolean }>`
    select exists (select 1 from pg_extension where extname = 'pg_trgm')
      or (exists (select 1 from pg_available_extensions where name = 'pg_trgm')
          and has_database_privilege(current_database(), 'CREATE')) as usable`.execute(db);
  if (!rows[0]?.usable) return;
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create index contact_channel_value_trgm_idx on contact_channel using gin (value gin_trgm_ops)`.execute(db);
  await sql`create index project_user_display_name_trgm_idx on project_user using gin (display_name gin_trgm_ops)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists contact_channel_value_trgm_idx`.execute(db);
  await sql`drop index if exists project_user_display_name_trgm_idx`.execute(db);
}
