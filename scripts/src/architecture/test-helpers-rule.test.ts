import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/test-helpers/', import.meta.url));

interface CruiseResult {
  summary: { violations: { from: string; to: string; rule: { name: string } }[] };
}

/** Runs `pnpm lint`'s test-code dependency-cruiser config over a fixture tree laid out like the workspace. */
async function cruiseFixture(): Promise<CruiseResult['summary']['violations']> {
  const run = promisify(execFile);
  const args = [
    'server',
    'client',
    'dashboard',
    'testing',
    '--config',
    `${repoRoot}.dependency-cruiser.tests.cjs`,
    '--output-type',
    'json',
  ];
  const { stdout } = await run(`${repoRoot}node_modules/.bin/depcruise`, args, { cwd: fixture }).catch(
    (error: { stdout: string }) => error,
  );
  return (JSON.parse(stdout) as CruiseResult).summary.violations;
}

describe('the lint rule keeping test helpers behind @gatehouse/testing', () => {
  it("fails a relative import into another package's src/testing/ or into testing/, and lets a package use its own helpers", async () => {
    const violations = await cruiseFixture();
    expect(violations.map(({ from, to, rule }) => `${rule.name}: ${from} -> ${to}`).sort()).toEqual([
      'test-helpers-through-their-package: client/src/reaches-into-server-testing.ts -> server/src/testing/server-helper.ts',
      'test-helpers-through-their-package: dashboard/e2e/reaches-into-testing-package.ts -> testing/src/shared-helper.ts',
    ]);
  }, 120_000);
});
