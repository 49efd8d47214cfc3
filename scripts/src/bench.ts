import { fork } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import autocannon from 'autocannon';
import { startThrowawayPostgres } from './testing/throwaway-postgres.ts';

/**
 * `pnpm bench`: requests/s, p50 and p99 of the platform's hot read endpoints at fixed concurrency,
 * each beside a bare Fastify route measured in the same run (the framework floor), as a ratio.
 */
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const duration = Number(process.env.BENCH_SECONDS ?? 8);

const postgres = process.env.DATABASE_URL ? undefined : await startThrowawayPostgres();
const databaseUrl = process.env.DATABASE_URL ?? (postgres?.url as string);
const child = fork(new URL('./bench/bench-servers.ts', import.meta.url).pathname, [], {
  env: { ...process.env, DATABASE_URL: databaseUrl },
  execArgv: ['--import', 'tsx'],
  stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
});
const ready = await new Promise<{ appPort: number; barePort: number; projectId: string; keys: Record<string, string> }>((resolve) => {
  child.stdout?.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString())));
});

type Result = { name: string; rps: number; p50: number; p99: number; errors: number };
async function measure(name: string, url: string, headers: Record<string, string> = {}): Promise<Result> {
  await autocannon({ url, headers, connections, duration: 1 }); // warm-up: JIT, caches, pool
  const result = await autocannon({ url, headers, connections, duration });
  return {
    name,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors,
  };
}

const app = `http://127.0.0.1:${ready.appPort}`;
const serverHeaders = {
  'x-stack-access-type': 'server',
  'x-stack-project-id': ready.projectId,
  'x-stack-secret-server-key': ready.keys.secret_server_key as string,
};
const floor = await measure('bare Fastify route (floor)', `http://127.0.0.1:${ready.barePort}/bare`);
const results = [
  floor,
  await measure('GET /projects/current (server key)', `${app}/api/v1/projects/current`, serverHeaders),
  await measure('GET /projects/{id}/.well-known/jwks.json', `${app}/api/v1/projects/${ready.projectId}/.well-known/jwks.json`),
];
child.send('memory');
const memory = await new Promise<{ rssMb: number }>((resolve) => child.once('message', (message) => resolve(message as { rssMb: number })));

console.log(`\nMachine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 1024 ** 3)} GiB, Node ${process.version}`);
console.log(
  `Load: autocannon, ${connections} connections, ${duration} s per endpoint; Postgres ${process.env.DATABASE_URL ? 'from DATABASE_URL' : '15 (throwaway)'}\n`,
);
console.log('| endpoint | req/s | p50 ms | p99 ms | vs floor | non-2xx |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const result of results) {
  console.log(
    `| ${result.name} | ${result.rps} | ${result.p50} | ${result.p99} | ${(result.rps / floor.rps).toFixed(2)}x | ${result.errors} |`,
  );
}
console.log(`\nServer process RSS after the run: ${memory.rssMb} MB`);

child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
postgres?.stop();
