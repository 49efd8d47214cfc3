import { sql } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';

/**
 * Counts one hit of `key` in its fixed window of `windowMs` and returns the hits so far and the time
 * left until the window resets. One statement (an upsert on the key's row), so concurrent hits from any
 * number of instances are counted exactly: the row lock of `on conflict do update` serialises them.
 * Keys name a client IP or an email, not a project's rows: across projects.
 */
export async function hitCounterAcrossProjects(db: DbHandle, key: string, windowMs: number): Promise<{ hits: number; resetInMs: number }> {
  const { rows } = await sql<{ hits: number; reset_in_ms: string }>`
    insert into rate_limit_counter as counter (key, hits, resets_at)
    values (${key}, 1, clock_timestamp() + ${windowMs} * interval '1 millisecond')
    on conflict (key) do update set
      hits = case when counter.resets_at <= clock_timestamp() then 1 else counter.hits + 1 end,
      resets_at = case when counter.resets_at <= clock_timestamp() then excluded.resets_at else counter.resets_at end
    returning hits, ceil(extract(epoch from (resets_at - clock_timestamp())) * 1000)::text as reset_in_ms`.execute(kyselyOf(db));
  const row = rows[0] as { hits: number; reset_in_ms: string };
  return { hits: row.hits, resetInMs: Math.max(0, Number(row.reset_in_ms)) };
}

/** The hits of `key` in its running window (0 when its window ended or it has none); reads only. */
export async function peekCounterAcrossProjects(db: DbHandle, key: string): Promise<{ hits: number; resetInMs: number }> {
  const { rows } = await sql<{ hits: number; reset_in_ms: string }>`
    select hits, ceil(extract(epoch from (resets_at - clock_timestamp())) * 1000)::text as reset_in_ms
    from rate_limit_counter where key = ${key} and resets_at > clock_timestamp()`.execute(kyselyOf(db));
  const row = rows[0];
  return row ? { hits: row.hits, resetInMs: Math.max(0, Number(row.reset_in_ms)) } : { hits: 0, resetInMs: 0 };
}

/** Takes one hit back from `key`'s running window, never below 0 (nothing when its window ended). */
export async function releaseCounterHitAcrossProjects(db: DbHandle, key: string): Promise<void> {
  await sql`update rate_limit_counter set hits = hits - 1 where key = ${key} and hits > 0 and resets_at > clock_timestamp()`.execute(
    kyselyOf(db),
  );
}

export async function deleteCounterAcrossProjects(db: DbHandle, key: string): Promise<void> {
  await sql`delete from rate_limit_counter where key = ${key}`.execute(kyselyOf(db));
}

/** Deletes up to `limit` counters whose window ended (a later hit would start from 1 anyway); returns how many. */
export async function deleteLapsedCountersAcrossProjects(db: DbHandle, limit: number): Promise<number> {
  const result = await sql`
    delete from rate_limit_counter
    where ctid = any(array(select ctid from rate_limit_counter where resets_at < clock_timestamp() limit ${limit}))`.execute(kyselyOf(db));
  return Number(result.numAffectedRows ?? 0n);
}
