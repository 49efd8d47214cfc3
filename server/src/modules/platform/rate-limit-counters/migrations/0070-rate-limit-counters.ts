import { type Kysely, sql } from 'kysely';

/**
 * The rate-limit counters every instance shares (modules/platform/rate-limit-counters): one row per limited key
 * (bucket and client IP, or bucket, project and email) with its hits in the current fixed window.
 * Unlogged: no WAL for the hottest writes of the platform; after a crash of Postgres (or a failover to
 * a standby) the counters start from zero, which only forgives the current windows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create unlogged table rate_limit_counter (
    key text primary key,
    hits integer not null,
    resets_at timestamptz not null
  )`.execute(db);
  await sql`create index rate_limit_counter_resets_idx on rate_limit_counter (resets_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table rate_limit_counter`.execute(db);
}
