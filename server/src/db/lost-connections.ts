import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

/**
 * A lent connection as Kysely sees it (its `PostgresPoolClient`): the pg client's `query`, and a
 * `release` that is a no-op once the connection was given back as broken.
 */
class LentClient implements PostgresPoolClient {
  readonly query: PostgresPoolClient['query'];
  private released = true;

  constructor(
    private readonly client: pg.PoolClient,
    private readonly onError: (error: Error) => void,
  ) {
    this.query = client.query.bind(client) as PostgresPoolClient['query'];
  }

  /** Called on each checkout: pg-pool has just taken its own idle 'error' listener off the client. */
  lend(): this {
    this.released = false;
    this.client.on('error', this.lost);
    return this;
  }

  private readonly lost = (error: Error): void => {
    if (this.released) return;
    this.released = true;
    this.client.removeListener('error', this.lost);
    this.onError(error);
    this.client.release(error);
  };

  release(): void {
    this.client.removeListener('error', this.lost);
    if (this.released) return;
    this.released = true;
    this.client.release();
  }
}

/**
 * The pool Kysely's PostgresDialect is given (its `PostgresPool` interface, over a pg Pool), made to
 * survive connections Postgres (or the network) ends under it, idle or in use:
 * - an idle client's error: pg-pool drops the client and emits it on the pool ('error' event), where,
 *   with no listener, it would end the process (a restarted Postgres, `pg_terminate_backend`);
 * - a checked-out client's error (its session ended by `idle_in_transaction_session_timeout` while the
 *   code holding it awaited something else): pg emits it on the client, which pg-pool leaves without a
 *   listener while it is lent (the process would end), and the client would count against the pool
 *   until its holder gave it back, perhaps never. Here it is given back at once, as broken, so the
 *   pool opens a new connection for the next caller; the holder's own release later does nothing
 *   (pg-pool's would throw on a second release), and its next statement fails ("Client has
 *   encountered a connection error and is not queryable").
 * `onError` hears each lost connection once. pg-pool's 'acquire' event cannot do the second part: it
 * fires before pg-pool sets `client.release`, and pg-pool's release throws when called twice.
 */
export function releasingLostConnections(pool: pg.Pool, onError: (error: Error) => void): PostgresPool {
  pool.on('error', (error) => onError(error));
  const lent = new WeakMap<pg.PoolClient, LentClient>();
  return {
    connect: async () => {
      const client = await pool.connect();
      let wrapper = lent.get(client);
      if (!wrapper) {
        wrapper = new LentClient(client, onError);
        lent.set(client, wrapper);
      }
      return wrapper.lend();
    },
    end: () => pool.end(),
  };
}
