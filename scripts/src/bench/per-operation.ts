import { readFileSync, writeFileSync } from 'node:fs';
import { measureReadOperations, operationRows, ratioOf, type StatementCounts } from './operations/measure-operations.ts';
import { type Fixture, planReadOperations, type SpecDocument } from './operations/operation-plan.ts';
import { readFloors } from './operations/read-floors.ts';
import { measureBulkWrites } from './operations/write-operations.ts';

type BenchTargets = {
  appUrl: string;
  floorUrl: string;
  keys: Record<string, string>;
  projectId: string;
  accessToken: string;
  fixture: Fixture;
  spareTeamIds: string[];
  spareUserIds: string[];
  /** Has the bench's server capture what it sends for each request and derive a floor from it (bench-servers.ts). */
  deriveFloors: (
    requests: Array<{ operationId: string; path: string; headers: Record<string, string> }>,
  ) => Promise<Record<string, { counts: StatementCounts; status: number; statement?: string }>>;
};

/** The bundled spec the server serves: the plan is read from it, so a new GET operation is measured the day it lands. */
const specUrl = new URL('../../../server/src/generated/openapi.json', import.meta.url);

/**
 * `BENCH_ONLY=per-operation`: every GET operation of the spec against its floor (read-floors.ts),
 * interleaved, then the bulk writes. `BENCH_OPERATION_SECONDS` (default 2) per measurement.
 */
export async function benchPerOperation(
  targets: BenchTargets,
  options: { connections: number },
): Promise<{ rows: string[]; withoutFloor: string[] }> {
  const seconds = Number(process.env.BENCH_OPERATION_SECONDS ?? 2);
  const headers = {
    client: {
      'x-stack-access-type': 'client',
      'x-stack-project-id': targets.projectId,
      'x-stack-publishable-client-key': targets.keys.publishable_client_key as string,
      'x-stack-access-token': targets.accessToken,
    },
    server: {
      'x-stack-access-type': 'server',
      'x-stack-project-id': targets.projectId,
      'x-stack-secret-server-key': targets.keys.secret_server_key as string,
    },
    admin: {
      'x-stack-access-type': 'admin',
      'x-stack-project-id': targets.projectId,
      'x-stack-super-secret-admin-key': targets.keys.super_secret_admin_key as string,
    },
  };
  // Fixture rows made through the API, as a user would: a user API key.
  const apiKey = await fetch(`${targets.appUrl}/api/v1/user-api-keys`, {
    method: 'POST',
    headers: { ...headers.client, 'content-type': 'application/json' },
    body: JSON.stringify({ user_id: 'me', description: 'bench' }),
  });
  if (!apiKey.ok) throw new Error(`creating the bench's user API key: ${apiKey.status} ${await apiKey.text()}`);
  const fixture = { ...targets.fixture, api_key_id: ((await apiKey.json()) as { id: string }).id };

  // `BENCH_OPERATIONS=<regex>`: only the operations whose operationId matches (a quick re-measure of a few).
  const selected = new RegExp(process.env.BENCH_OPERATIONS ?? '.');
  const plan = planReadOperations(JSON.parse(readFileSync(specUrl, 'utf8')) as SpecDocument, readFloors, fixture).filter((operation) =>
    selected.test(operation.operationId),
  );
  const started = Date.now();
  // Every measurable operation's statements captured (a floor derived for those without a hand-written one).
  const captured = await targets.deriveFloors(
    plan.flatMap((operation) =>
      operation.requestPath
        ? [
            {
              operationId: operation.operationId,
              path: operation.requestPath,
              headers: { ...(operation.accessType ? headers[operation.accessType] : {}), ...operation.headers },
            },
          ]
        : [],
    ),
  );
  if (process.env.BENCH_DERIVED_FLOORS_FILE) writeFileSync(process.env.BENCH_DERIVED_FLOORS_FILE, JSON.stringify(captured, null, 2));
  const results = await measureReadOperations(plan, {
    captured,
    appUrl: targets.appUrl,
    floorUrl: targets.floorUrl,
    headers,
    seconds,
    connections: options.connections,
  });
  const writes = await measureBulkWrites({
    appUrl: targets.appUrl,
    serverHeaders: headers.server,
    spareUserIds: targets.spareUserIds,
    teamIds: targets.spareTeamIds,
    seconds: Math.max(seconds, 2),
    connections: options.connections,
  });
  const judged = results.filter((result) => ratioOf(result) !== undefined);
  const below = judged.filter((result) => (ratioOf(result) as number) < 0.8);
  // Every operation the spec has is judged against a floor, or the bench fails naming it.
  const withoutFloor = results
    .filter((result) => ratioOf(result) === undefined)
    .map((result) => `${result.operation.operationId} (${result.note ?? 'no ratio'})`);
  const rows = [
    `Per-operation reads: ${plan.length} GET operations in the spec, ${judged.length} against a floor, ${
      results.filter((result) => result.note === 'no floor').length
    } with no floor, ${results.filter((result) => !result.ours).length} not measured; ${below.length} below 0.8x (${seconds} s per measurement, ${options.connections} connections, ${Math.round((Date.now() - started) / 1000)} s)`,
    ...operationRows(results),
    '',
    'Bulk writes (no floor):',
    '| write | req/s | p50 ms | p99 ms | non-2xx |',
    '|---|---:|---:|---:|---:|',
    ...writes.map((write) => `| ${write.name} | ${write.rps} | ${write.p50} | ${write.p99} | ${write.non2xx} |`),
  ];
  return { rows, withoutFloor };
}
