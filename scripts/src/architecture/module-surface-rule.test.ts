import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/surface/', import.meta.url));

interface CruiseResult {
  summary: { violations: { from: string; to: string; rule: { name: string } }[] };
}

/** Runs `pnpm lint`'s dependency-cruiser config over a fixture tree laid out like server/src. */
async function cruiseFixture(): Promise<CruiseResult['summary']['violations']> {
  const run = promisify(execFile);
  const args = ['server/src', '--config', `${repoRoot}.dependency-cruiser.cjs`, '--output-type', 'json'];
  const { stdout } = await run(`${repoRoot}node_modules/.bin/depcruise`, args, { cwd: fixture }).catch(
    (error: { stdout: string }) => error,
  );
  return (JSON.parse(stdout) as CruiseResult).summary.violations;
}

describe("the lint rule guarding each module's index.ts", () => {
  it('fails an import past another module’s index.ts, in an area or not, and lets the door and own files through', async () => {
    const violations = await cruiseFixture();
    expect(violations.map(({ from, to, rule }) => `${rule.name}: ${from} -> ${to}`).sort()).toEqual([
      'module-public-surface: server/src/modules/billing/fixture-invoices/past-the-door.ts -> server/src/modules/identity/fixture-people/people.service.ts',
      'module-public-surface: server/src/modules/fixture-flat/past-the-door.ts -> server/src/modules/identity/fixture-people/people.service.ts',
    ]);
  }, 120_000);
});
