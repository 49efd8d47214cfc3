import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { serveClusterMetrics } from './cluster-metrics.ts';

/**
 * `WORKERS`: how many server processes share the port (node:cluster). Default 1: one process per
 * instance, the usual shape under an orchestrator (scale by instances; each gets its CPU limit).
 * `auto` = the host's cores (`os.availableParallelism()`), a number = that many. Each worker is a whole
 * server with its own pool (`DATABASE_POOL_SIZE` each) and its own background jobs and cache listener;
 * it needs `DATABASE_URL` (PGlite is one process's database).
 */
export function readWorkers(environment: NodeJS.ProcessEnv): number {
  const value = (environment.WORKERS ?? '').trim();
  if (value === '') return 1;
  const count = value === 'auto' ? availableParallelism() : Number(value);
  if (!Number.isInteger(count) || count < 1 || count > 256)
    throw new Error(`WORKERS must be a whole number from 1 to 256 or auto, got ${value}`);
  if (count > 1 && !environment.DATABASE_URL)
    throw new Error('WORKERS > 1 needs DATABASE_URL: the embedded PGlite database belongs to one process');
  return count;
}

/**
 * With WORKERS > 1, makes this process the primary: it forks the workers (each runs the server's
 * normal start: migrations and seeding are serialised by the startup lock), replaces a worker that
 * dies unexpectedly (after 1 s, at most 10 times a minute), serves the workers' metrics requests, and on
 * SIGTERM/SIGINT sends SIGTERM to every worker and exits once all have (0 when every worker drained
 * cleanly). Returns true in the primary (which must not start a server itself), false otherwise.
 */
export function startClusterPrimary(environment: NodeJS.ProcessEnv = process.env): boolean {
  if (!cluster.isPrimary) return false;
  const count = readWorkers(environment);
  if (count <= 1) return false;

  serveClusterMetrics();
  let stopping = false;
  let worstExit = 0;
  const restarts: number[] = [];
  const fork = (): Worker => cluster.fork();
  for (let i = 0; i < count; i++) fork();
  console.log(`gatehouse: ${count} workers (WORKERS=${environment.WORKERS}) sharing one port; primary pid ${process.pid}`);

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (code !== 0) worstExit = 1;
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(worstExit);
      return;
    }
    const now = Date.now();
    while (restarts.length > 0 && (restarts[0] as number) < now - 60_000) restarts.shift();
    if (restarts.length >= 10) {
      console.error(`gatehouse: worker ${worker.process.pid} exited (${signal ?? code}); 10 restarts within a minute, giving up`);
      stopping = true;
      worstExit = 1;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(1);
      return;
    }
    restarts.push(now);
    console.error(`gatehouse: worker ${worker.process.pid} exited (${signal ?? code}); starting another in 1 s`);
    setTimeout(() => {
      if (!stopping) fork();
    }, 1_000);
  });

  // Workers drain on SIGTERM; one that also got the terminal's SIGINT ignores the second signal.
  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  return true;
}
