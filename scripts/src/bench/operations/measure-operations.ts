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
};

type Options = {
  appUrl: string;
  floorUrl: string;
  headers: Record<AccessType, Record<string, string>>;
  seconds: number;
  connections: number;
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
    const headers = operation.accessType ? options.headers[operation.accessType] : {};
    const ours = `${options.appUrl}/api/v1${operation.requestPath}`;
    const floor = `${options.floorUrl}/floor/${operation.operationId}`;
    const run = (url: string, seconds = options.seconds) => sample(url, headers, seconds, options.connections);
    await run(ours, 0.5); // warm-up: JIT, caches, prepared statements
    if (!operation.floor) {
      results.push({ operation, ours: await run(ours), note: 'no floor' });
      continue;
    }
    await run(floor, 0.5);
    const before = await run(floor);
    const measured = await run(ours);
    const after = await run(floor);
    results.push({ operation, ours: measured, floors: [before, after] });
  }
  return results;
}

export const ratioOf = (result: OperationResult): number | undefined => {
  if (!result.ours || !result.floors) return undefined;
  const floor = (result.floors[0].rps + result.floors[1].rps) / 2;
  return floor > 0 ? result.ours.rps / floor : undefined;
};

export function operationRows(results: OperationResult[]): string[] {
  const rows = [
    '| operation | access | ours req/s | p50 ms | p99 ms | non-2xx | floor req/s (before / after) | ours / floor |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  const sorted = [...results].sort((a, b) => (ratioOf(a) ?? Number.POSITIVE_INFINITY) - (ratioOf(b) ?? Number.POSITIVE_INFINITY));
  for (const result of sorted) {
    const { operation, ours, floors } = result;
    const ratio = ratioOf(result);
    rows.push(
      `| ${operation.operationId} \`GET ${operation.specPath}\` | ${operation.accessType ?? 'none'} | ${ours?.rps ?? ''} | ${ours?.p50 ?? ''} | ${ours?.p99 ?? ''} | ${ours?.non2xx ?? ''} | ${
        floors ? `${floors[0].rps} / ${floors[1].rps}` : ''
      } | ${ratio === undefined ? (result.note ?? '') : `${ratio.toFixed(2)}x${ratio < 0.8 ? ' (below 0.8x)' : ''}`} |`,
    );
  }
  return rows;
}
