/**
 * Tells whether a failure of a database call means the database could not be reached or ended the
 * connection, rather than refused the statement: Postgres stopped (connection refused), the network
 * or Postgres cut the connection (reset, "Connection terminated unexpectedly"), Postgres starting up
 * (57P03), shutting down or ending the session (57P01 admin shutdown, 57P02 crash shutdown), any
 * SQLSTATE of class 08 (connection exception), or a pooled client pg no longer lets query after its
 * connection failed. The error handler answers these 503 DATABASE_UNAVAILABLE; any other error stays a
 * logged 500 (a bug is not hidden as an outage).
 */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (networkCodes.has(code)) return true;
    // A SQLSTATE from Postgres (pg's DatabaseError carries it as `code`).
    if (/^08[0-9A-Z]{3}$/.test(code) || shutdownStates.has(code)) return true;
  }
  return lostConnectionMessages.some((message) => error.message.startsWith(message));
}

/** Node's socket errors while connecting to Postgres or talking to it. */
const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** admin_shutdown (also `pg_terminate_backend`), crash_shutdown, cannot_connect_now (starting up, or in recovery). */
const shutdownStates = new Set(['57P01', '57P02', '57P03']);

/** pg's own errors (no code) when the connection ended under a query or a client is broken or ended. */
const lostConnectionMessages = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];
