import type pg from 'pg';

type PooledClient = pg.PoolClient & { release: (error?: Error | boolean) => void };

/**
 * Makes a pg Pool survive connections Postgres (or the network) ends under it, idle or in use:
 * - an idle client's error: pg-pool drops the client and emits it on the pool, where, with no listener,
 *   it would end the process (a restarted Postgres, `pg_terminate_backend`);
 * - a checked-out client's error (its session ended by `idle_in_transaction_session_timeout` while the
 *   code holding it awaited something else): pg emits it on the client, which pg-pool leaves without a
 *   listener while it is lent (the process would end), and the client would count against the pool
 *   until its holder gave it back, perhaps never. Here it is given back at once, as broken, so the
 *   pool opens a new connection for the next caller; the holder's own release later does nothing, and
 *   its next statement fails ("Client has encountered a connection error and is not queryable").
 * `onError` hears each lost connection once.
 */
export function releaseLostConnections(pool: pg.Pool, onError: (error: Error) => void): void {
  pool.on('error', (error) => onError(error));
  const connect = pool.connect.bind(pool) as () => Promise<PooledClient>;
  // Kysely calls connect() without a callback; a callback caller keeps pg-pool's own behaviour.
  (pool as unknown as { connect: (...args: unknown[]) => unknown }).connect = (...args: unknown[]) => {
    if (args.length > 0) return (pool.constructor.prototype.connect as (...args: unknown[]) => unknown).apply(pool, args);
    return connect().then(guard);
  };
  const guard = (client: PooledClient): PooledClient => {
    const release = client.release;
    let released = false;
    const lost = (error: Error) => {
      if (released) return;
      released = true;
      client.removeListener('error', lost);
      onError(error);
      release(error);
    };
    client.on('error', lost);
    client.release = (error?: Error | boolean) => {
      client.removeListener('error', lost);
      if (released) return;
      released = true;
      release(error);
    };
    return client;
  };
}
