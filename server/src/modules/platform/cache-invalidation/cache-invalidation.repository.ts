import { sql } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';

/** The NOTIFY channel every instance listens on. */
export const invalidationChannel = 'gatehouse_cache_invalidation';
/** The listener's `application_name` (it shows in pg_stat_activity). */
export const listenerApplicationName = 'gatehouse-cache-listener';

export type InvalidationRow = { seq: string; topic: string; key: string; origin: string };

/**
 * Records one invalidation and sends it to every listening instance, in one statement (inside a
 * transaction the notification leaves at commit, and not at all on rollback). Topics name caches of
 * any project (and of none): across projects.
 */
export async function publishInvalidationAcrossProjects(db: DbHandle, topic: string, key: string, origin: string): Promise<void> {
  await sql`
    with recorded as (insert into cache_invalidation (topic, key, origin) values (${topic}, ${key}, ${origin}) returning seq)
    select pg_notify(${invalidationChannel}, json_build_object('seq', seq::text, 'topic', ${topic}::text, 'key', ${key}::text, 'origin', ${origin}::text)::text)
    from recorded`.execute(kyselyOf(db));
}

/** The invalidations after `afterSeq`, oldest first (at most `limit`). */
export async function readInvalidationsAcrossProjects(db: DbHandle, afterSeq: bigint, limit: number): Promise<InvalidationRow[]> {
  const { rows } = await sql<InvalidationRow>`
    select seq::text as seq, topic, key, origin from cache_invalidation where seq > ${afterSeq.toString()}::bigint order by seq limit ${limit}`.execute(
    kyselyOf(db),
  );
  return rows;
}

/** The newest invalidation's number (0 when there is none). */
export async function newestInvalidationAcrossProjects(db: DbHandle): Promise<bigint> {
  const { rows } = await sql<{ seq: string | null }>`select max(seq)::text as seq from cache_invalidation`.execute(kyselyOf(db));
  return BigInt(rows[0]?.seq ?? '0');
}

/** Deletes invalidations older than `olderThanMs` (every instance has applied them long ago); returns how many. */
export async function deleteOldInvalidationsAcrossProjects(db: DbHandle, olderThanMs: number): Promise<number> {
  const result = await sql`
    delete from cache_invalidation where created_at < clock_timestamp() - ${olderThanMs} * interval '1 millisecond'`.execute(kyselyOf(db));
  return Number(result.numAffectedRows ?? 0n);
}

export type InvalidationListener = { close: () => Promise<void> };

/**
 * A dedicated connection (outside the pool) that LISTENs on the channel: `onMessage` gets each
 * notification, `onLost` is called once when the connection ends or fails.
 */
export async function listenForInvalidationsAcrossProjects(
  databaseUrl: string,
  onMessage: (row: InvalidationRow) => void,
  onLost: (error?: unknown) => void,
): Promise<InvalidationListener> {
  // Loaded here: a process on PGlite never listens and never loads pg.
  const { default: pg } = await import('pg');
  const client = new pg.Client({
    connectionString: databaseUrl,
    application_name: listenerApplicationName,
    keepAlive: true,
    connectionTimeoutMillis: 5_000,
  });
  let lost = false;
  const lose = (error?: unknown) => {
    if (lost) return;
    lost = true;
    onLost(error);
    client.end().catch(() => undefined);
  };
  client.on('error', lose);
  client.on('end', () => lose());
  client.on('notification', (message) => {
    if (message.channel !== invalidationChannel || !message.payload) return;
    try {
      const parsed = JSON.parse(message.payload) as InvalidationRow;
      onMessage({ seq: String(parsed.seq), topic: String(parsed.topic), key: String(parsed.key), origin: String(parsed.origin ?? '') });
    } catch {
      // Not ours: ignore.
    }
  });
  try {
    await client.connect();
    await client.query(`listen ${invalidationChannel}`);
  } catch (error) {
    lost = true;
    await client.end().catch(() => undefined);
    throw error;
  }
  return {
    close: async () => {
      lost = true;
      await client.end().catch(() => undefined);
    },
  };
}
