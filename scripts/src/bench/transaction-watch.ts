import pg from 'pg';

/**
 * One transaction seen open in `pg_stat_activity` (a backend and its `xact_start`), over the samples
 * that saw it: how long it stayed open and, the worrying part, how long it sat `idle in transaction`
 * (its connection holding the transaction while the client did something other than query).
 */
export type TransactionEpisode = {
  pid: number;
  applicationName: string;
  database: string;
  backendStart: string;
  xactStart: string;
  /** The longest `now() - xact_start` seen. */
  openMs: number;
  /** The longest `now() - state_change` seen while `idle in transaction` (0: never seen idle in it). */
  idleInTransactionMs: number;
  /** The statement the backend ran last when it was seen idle in the transaction longest (or last seen). */
  lastQuery: string;
  samples: number;
};

export type TransactionWatch = {
  /** Stops sampling; the episodes seen, the longest idle first. */
  stop: () => Promise<{ samples: number; episodes: TransactionEpisode[] }>;
};

/**
 * Samples `pg_stat_activity` every `everyMs` (default 200 ms) on a connection of its own
 * (`application_name` `gatehouse-bench-watch`, left out of what it reports) and keeps every
 * transaction it sees open on `database` (all databases when unset): the bench's own connections
 * and the server's pools tell themselves apart by `application_name` (the server's is `gatehouse`).
 */
export async function watchTransactions(
  connectionString: string,
  options: { database?: string; everyMs?: number } = {},
): Promise<TransactionWatch> {
  const client = new pg.Client({ connectionString, application_name: 'gatehouse-bench-watch' });
  await client.connect();
  const episodes = new Map<string, TransactionEpisode>();
  let samples = 0;
  let stopped = false;
  const sample = async () => {
    const { rows } = await client.query<{
      pid: number;
      datname: string;
      application_name: string;
      state: string;
      backend_start: Date;
      xact_start: Date;
      query: string;
      open_ms: number;
      idle_ms: number | null;
    }>(
      `select pid, datname, application_name, state, backend_start, xact_start, query,
              extract(epoch from now() - xact_start) * 1000 as open_ms,
              case when state like 'idle in transaction%' then extract(epoch from now() - state_change) * 1000 end as idle_ms
         from pg_stat_activity
        where xact_start is not null and pid <> pg_backend_pid() and backend_type = 'client backend'
          and ($1::text is null or datname = $1)`,
      [options.database ?? null],
    );
    samples++;
    for (const row of rows) {
      const key = `${row.pid}/${row.xact_start.toISOString()}`;
      const episode = episodes.get(key) ?? {
        pid: row.pid,
        applicationName: row.application_name,
        database: row.datname,
        backendStart: row.backend_start.toISOString(),
        xactStart: row.xact_start.toISOString(),
        openMs: 0,
        idleInTransactionMs: 0,
        lastQuery: row.query,
        samples: 0,
      };
      episode.samples++;
      episode.openMs = Math.max(episode.openMs, Math.round(Number(row.open_ms)));
      const idle = row.idle_ms === null ? 0 : Math.round(Number(row.idle_ms));
      if (idle >= episode.idleInTransactionMs) {
        episode.idleInTransactionMs = idle;
        episode.lastQuery = row.query;
      }
      episodes.set(key, episode);
    }
  };
  const everyMs = options.everyMs ?? 200;
  const loop = (async () => {
    while (!stopped) {
      const started = Date.now();
      await sample();
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - (Date.now() - started))));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      await client.end();
      const list = [...episodes.values()].sort((a, b) => b.idleInTransactionMs - a.idleInTransactionMs || b.openMs - a.openMs);
      return { samples, episodes: list };
    },
  };
}
