import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { routeTable } from '../../../server/src/generated/route-table.ts';

/**
 * Every (operation, error code) the spec declares, minus the ones a contract test produced. An error
 * declared but never produced by a test is not yet proven, so `pnpm test` fails on any.
 */
export function uncoveredDeclaredErrors(coverageDir: string): string[] {
  const seen = new Set<string>();
  for (const file of readdirSync(coverageDir)) {
    for (const line of readFileSync(join(coverageDir, file), 'utf8').split('\n')) {
      if (!line) continue;
      const entry = JSON.parse(line) as { operationId: string; status: number; code?: string };
      seen.add(`${entry.operationId} ${entry.status} ${entry.code ?? ''}`.trim());
    }
  }
  const missing: string[] = [];
  for (const route of routeTable) {
    if (!seen.has(`${route.operationId} ${route.successStatus}`)) missing.push(`${route.operationId} ${route.successStatus} (success)`);
    for (const [status, codes] of Object.entries(route.errorCodes)) {
      for (const code of codes)
        if (!seen.has(`${route.operationId} ${status} ${code}`)) missing.push(`${route.operationId} ${status} ${code}`);
    }
  }
  return missing;
}
