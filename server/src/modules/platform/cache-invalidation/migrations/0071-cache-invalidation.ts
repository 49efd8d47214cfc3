import { type Kysely, sql } from 'kysely';

/**
 * The cache invalidations every instance applies (modules/platform/cache-invalidation): one row per change of
 * a cached thing (a project, a project's key sets, its verified tokens), numbered in order, with the
 * instance that made it (which has applied it already). Each insert is also sent with NOTIFY; an instance whose listener is down reads the rows after the last it saw.
 * Rows older than ten minutes are deleted by a job. Unlogged: after a crash of Postgres the numbers
 * restart, which an instance notices (the newest number went down) and answers by dropping its caches.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create unlogged table cache_invalidation (
    seq bigserial primary key,
    topic text not null,
    key text not null,
    origin text not null,
    created_at timestamptz not null default clock_timestamp()
  )`.execute(db);
  await sql`create index cache_invalidation_created_idx on cache_invalidation (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table cache_invalidation`.execute(db);
}
