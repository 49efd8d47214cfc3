import type { FastifyInstance } from 'fastify';

/**
 * On SIGTERM or SIGINT: `/ready` turns 503 (the load balancer stops sending traffic); after `delayMs`
 * (still serving as usual, for the load balancer's health check to notice: SHUTDOWN_DELAY_SECONDS) the listener
 * closes (no new connections; a new request on a kept-alive connection gets 503 with
 * `Connection: close`), the requests in flight and the background jobs' runs in progress finish (each connection is closed
 * once its request is answered), then
 * the database pool closes and the process exits 0. Past `timeoutMs` the remaining connections are
 * cut, the pool is closed anyway and the process exits 1.
 */
export function closeGracefullyOnSignals(options: {
  app: FastifyInstance;
  closeDatabase: () => Promise<void>;
  startDraining: () => void;
  timeoutMs: number;
  delayMs?: number;
}): void {
  const { app, closeDatabase, startDraining, timeoutMs, delayMs = 0 } = options;
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal, timeoutMs, delayMs }, 'shutting down: draining in-flight requests and jobs');
    startDraining();
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      app.log.warn({ timeoutMs }, 'shutdown timeout reached: closing the remaining connections');
      app.server.closeAllConnections();
    }, timeoutMs);
    // A kept-alive connection whose request finishes during the drain would hold the close until its
    // keep-alive timeout: close each one as soon as it is idle.
    const reaper = setInterval(() => app.server.closeIdleConnections(), 50);
    try {
      // Fastify's close stops the listener, lets in-flight requests finish and runs onClose (the jobs stop there).
      await Promise.race([app.close(), new Promise((resolve) => setTimeout(resolve, timeoutMs + 1_000).unref())]);
      await closeDatabase();
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      timedOut = true;
    } finally {
      clearTimeout(timer);
      clearInterval(reaper);
    }
    process.exit(timedOut ? 1 : 0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
