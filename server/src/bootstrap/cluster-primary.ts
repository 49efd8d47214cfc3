import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { readIntegerSetting } from '../config/settings.ts';
import { serveClusterMetrics } from '../lib/cluster-metrics.ts';

/**
 * `WORKERS`: how many server processes share the port (node:cluster). Default 1: one process per
 * instance, the usual shape under an orchestrator (scale by instances; each gets its CPU limit).
 * `auto` = the host's cores (`os.availableParallelism()`), a number = that many. Each worker is a whole
 * server with its own pool (`DATABASE_POOL_SIZE` each) and its own background jobs and cache listener;
 * it needs `DATABASE_URL` (PGlite is one process's database).
 */
export function readWorkers(environment: NodeJS.ProcessEnv): number {
  const value = (environment.WORKERS ?? '').trim();
  const count =
    value === 'auto'
      ? availableParallelism()
      : (readIntegerSetting({ WORKERS: value }, 'WORKERS', { min: 1, max: 256, expected: 'a whole number from 1 to 256 or auto' }) ?? 1);
  if (count > 1 && !environment.DATABASE_URL)
    throw new Error('WORKERS > 1 needs DATABASE_URL: the embedded PGlite database belongs to one process');
  return count;
}

/** A worker that dies is replaced after this long; more than `restartLimit` deaths within a minute stop the host. */
const restartDelayMs = 1_000;
const restartLimit = 10;

/**
 * With WORKERS > 1, makes this process the primary: it forks the workers (each runs the server's
 * normal start: migrations and seeding are serialised by the startup lock), replaces a worker that
 * dies unexpectedly (after 1 s, at most 10 times a minute, then it stops everything and exits 1),
 * serves the workers' metrics requests, and on SIGTERM/SIGINT sends SIGTERM to every worker and exits
 * once all have ended (0 when every worker drained cleanly, 1 otherwise). The primary serves no HTTP:
 * node:cluster's round-robin hands each new connection to the next worker. Returns true in the
 * primary (which must not start a server itself), false otherwise.
 */
export function startClusterPrimary(environment: NodeJS.ProcessEnv = process.env): boolean {
  if (!cluster.isPrimary) return false;
  const count = readWorkers(environment);
  if (count <= 1) return false;

  serveClusterMetrics();
  // Our own account of live workers: cluster.workers drops a worker only once both its exit and
  // its IPC disconnect were seen, which may come after the 'exit' event.
  const live = new Set<Worker>();
  let stopping = false;
  let exitCode = 0;
  const restarts: number[] = [];
  const exitWhenAllEnded = () => {
    if (live.size === 0) process.exit(exitCode);
  };
  const fork = () => {
    const worker = cluster.fork();
    live.add(worker);
    worker.once('exit', (code, signal) => {
      live.delete(worker);
      if (stopping) {
        if (code !== 0) exitCode = 1;
        exitWhenAllEnded();
        return;
      }
      replace(worker, code, signal);
    });
  };
  const stopAll = (code: number) => {
    stopping = true;
    exitCode = Math.max(exitCode, code);
    for (const worker of live) worker.process.kill('SIGTERM');
    exitWhenAllEnded();
  };
  const replace = (worker: Worker, code: number, signal: string) => {
    const now = Date.now();
    while (restarts.length > 0 && (restarts[0] as number) < now - 60_000) restarts.shift();
    if (restarts.length >= restartLimit) {
      console.error(
        `gatehouse: worker ${worker.process.pid} exited (${signal ?? code}); ${restartLimit} restarts within a minute, stopping`,
      );
      stopAll(1);
      return;
    }
    restarts.push(now);
    console.error(`gatehouse: worker ${worker.process.pid} exited (${signal ?? code}); starting another in ${restartDelayMs} ms`);
    setTimeout(() => {
      if (!stopping) fork();
    }, restartDelayMs);
  };

  for (let i = 0; i < count; i++) fork();
  console.log(`gatehouse: ${count} workers (WORKERS=${environment.WORKERS}) sharing one port; primary pid ${process.pid}`);
  // Workers drain on SIGTERM; one that also got the terminal's SIGINT ignores the second signal.
  const stop = () => {
    if (!stopping) stopAll(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  return true;
}
