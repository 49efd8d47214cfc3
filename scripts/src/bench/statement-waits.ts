import pg from 'pg';

export type StatementWaits = {
  samples: number;
  /** Mean number of backends running the statement at once (Little's law: divided by the rate, the time one spends in Postgres). */
  meanActive: number;
  /** Share of those backend-samples per wait (`Lock:advisory`, `LWLock:…`, `running` when not waiting). */
  shares: Record<string, number>;
};

/**
 * Samples `pg_stat_activity` every 10 ms while `run` runs: the backends whose current, active
 * statement contains `marker`, and what each was waiting on. Where a statement's time in Postgres
 * goes (a lock queue, or running) is measured, not guessed, and it does not depend on the machine's
 * load the way requests per second do.
 */
export async function sampleStatementWaits<T>(
  databaseUrl: string,
  marker: string,
  run: () => Promise<T>,
): Promise<{ result: T; waits: StatementWaits }> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'bench-wait-sampler' });
  await client.connect();
  const counts = new Map<string, number>();
  let samples = 0;
  let active = 0;
  let running = true;
  const sampler = (async () => {
    while (running) {
      const { rows } = await client.query<{ wait: string }>(
        `select coalesce(wait_event_type || ':' || wait_event, 'running') as wait from pg_stat_activity
          where state = 'active' and pid <> pg_backend_pid() and position($1 in query) > 0`,
        [marker],
      );
      samples++;
      active += rows.length;
      for (const row of rows) counts.set(row.wait, (counts.get(row.wait) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  try {
    const result = await run();
    return {
      result,
      waits: {
        samples,
        meanActive: samples > 0 ? active / samples : 0,
        shares: Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]).map(([wait, count]) => [wait, active > 0 ? count / active : 0])),
      },
    };
  } finally {
    running = false;
    await sampler;
    await client.end();
  }
}

/** One line: mean backends in the statement, its time in Postgres at `rps` (Little's law), and the top waits. */
export function describeWaits(waits: StatementWaits, rps: number): string {
  const inPostgres = rps > 0 ? (waits.meanActive / rps) * 1000 : Number.NaN;
  const shares = Object.entries(waits.shares)
    .slice(0, 4)
    .map(([wait, share]) => `${wait} ${Math.round(share * 100)}%`)
    .join(', ');
  return `${waits.meanActive.toFixed(1)} backends in it on average (${waits.samples} samples) = ${inPostgres.toFixed(1)} ms per call in Postgres at ${rps} req/s; ${shares || 'never seen'}`;
}
