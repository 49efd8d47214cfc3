import autocannon from 'autocannon';
import type { AccessType, PlannedOperation } from './operation-plan.ts';

export type Sample = { rps: number; p50: number; p99: number; non2xx: number };
export type OperationResult = {
  operation: PlannedOperation;
  ours?: Sample;
  /** The floor measured right before and right after ours (interleaved, so the machine's drift cancels out). */
  floors?: [Sample, Sample];
  /** Why it was not measured, or has no ratio. */
  note?: string;
  /** The floor: hand-written (read-floors.ts) or derived from the statements our handler sent (derived-floors.ts). */
  floorKind?: 'hand-written' | 'derived';
  /** What our handler sent to Postgres for one warm request of it (captured). */
  statements?: StatementCounts;
  /** The status our server answered the captured request with (a redirect's 3xx, a refused one-shot callback's 4xx). */
  status?: number;
};

export type StatementCounts = { reads: number; writes: number; control: number };

type Options = {
  appUrl: string;
  floorUrl: string;
  headers: Record<AccessType, Record<string, string>>;
  seconds: number;
  connections: number;
  /** Per operation: what our handler sent for one warm request, and whether a floor was derived from it. */
  captured: Readonly<Record<string, { counts: StatementCounts; status: number }>>;
};

async function sample(url: string, headers: Record<string, string>, seconds: number, connections: number): Promise<Sample> {
  const result = await autocannon({ url, connections, duration: seconds, requests: [{ headers }] });
  // Answers over the whole run: on a saturated machine a 1-2 s run may have no full second to average over.
  return {
    rps: Math.round(result.requests.total / Math.max(result.duration, seconds)),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
  };
}

/** Floor, ours, floor for each operation with a floor; ours alone for the others. */
export async function measureReadOperations(plan: PlannedOperation[], options: Options): Promise<OperationResult[]> {
  const results: OperationResult[] = [];
  for (const operation of plan) {
    if (!operation.requestPath) {
      results.push({ operation, note: `not measured: the bench has no ${operation.missing.join(', ')}` });
      continue;
    }
    const headers = { ...(operation.accessType ? options.headers[operation.accessType] : {}), ...operation.headers };
    const ours = `${options.appUrl}/api/v1${operation.requestPath}`;
    const captured = options.captured[operation.operationId];
    const floorKind = operation.floor ? 'hand-written' : captured ? 'derived' : undefined;
    const floor = `${options.floorUrl}/${operation.floor ? 'floor' : 'derived'}/${operation.operationId}`;
    const run = (url: string, seconds = options.seconds) => sample(url, headers, seconds, options.connections);
    await run(ours, 0.5); // warm-up: JIT, caches, prepared statements
    if (!floorKind) {
      results.push({ operation, ours: await run(ours), note: 'no floor' });
      continue;
    }
    await run(floor, 0.5);
    const before = await run(floor);
    const measured = await run(ours);
    const after = await run(floor);
    // A floor that fails (a derived statement Postgres refused) judges nothing: said, not hidden in a ratio.
    const floorFailed = before.non2xx + after.non2xx > 0;
    results.push({
      operation,
      ours: measured,
      floors: [before, after],
      floorKind,
      statements: captured?.counts,
      status: captured?.status,
      ...(floorFailed ? { note: 'floor failed' } : {}),
    });
  }
  return results;
}

export const ratioOf = (result: OperationResult): number | undefined => {
  if (!result.ours || !result.floors || result.note === 'floor failed') return undefined;
  const floor = (result.floors[0].rps + result.floors[1].rps) / 2;
  return floor > 0 ? result.ours.rps / floor : undefined;
};

export function operationRows(results: OperationResult[]): string[] {
  const rows = [
    '| operation | access | ours req/s | p50 ms | p99 ms | non-2xx (status answered) | statements ours sent (reads / writes / transaction) | floor | floor req/s (before / after) | ours / floor |',
    '|---|---|---:|---:|---:|---:|---:|---|---:|---:|',
  ];
  const sorted = [...results].sort((a, b) => (ratioOf(a) ?? Number.POSITIVE_INFINITY) - (ratioOf(b) ?? Number.POSITIVE_INFINITY));
  for (const result of sorted) {
    const { operation, ours, floors, statements, status } = result;
    const ratio = ratioOf(result);
    const sent = statements ? `${statements.reads} / ${statements.writes} / ${statements.control}` : '';
    rows.push(
      `| ${operation.operationId} \`GET ${operation.specPath}\` | ${operation.accessType ?? 'none'} | ${ours?.rps ?? ''} | ${ours?.p50 ?? ''} | ${ours?.p99 ?? ''} | ${ours?.non2xx ?? ''}${status ? ` (${status})` : ''} | ${sent} | ${result.floorKind ?? ''} | ${
        floors ? `${floors[0].rps} / ${floors[1].rps}` : ''
      } | ${ratio === undefined ? (result.note ?? '') : `${ratio.toFixed(2)}x${ratio < 0.8 ? ' (below 0.8x)' : ''}`} |`,
    );
  }
  return rows;
}
