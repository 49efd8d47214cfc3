import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDashboardBuilt, ensureExampleAppBuilt } from './example-app/build-example-app.ts';
import { uncoveredDeclaredErrors } from './testing/contract-coverage.ts';
import { ensureChromium } from './testing/ensure-chromium.ts';
import { ensureHaproxy } from './testing/ensure-haproxy.ts';
import { ensureRedis } from './testing/ensure-redis.ts';

/**
 * `pnpm test`: the whole suite on a throwaway Postgres (started by the vitest global setup unless
 * DATABASE_URL is set), then the contract coverage report: every success and error response the spec
 * declares must have been produced by some test. Ends with a plain `N passed, N failed` line.
 */
// The browser tests need Chromium and the built example app and dashboard, the load-balancer test
// HAProxy, the Redis counter's redis-server; all are made ready once, up front.
ensureChromium();
ensureHaproxy();
ensureRedis();
await Promise.all([ensureExampleAppBuilt(), ensureDashboardBuilt()]);

const work = mkdtempSync(join(tmpdir(), 'gatehouse-test-'));
const coverageDir = join(work, 'coverage');
const resultsFile = join(work, 'results.json');
spawnSync('mkdir', ['-p', coverageDir]);

const vitest = spawnSync(
  'pnpm',
  ['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${resultsFile}`, ...process.argv.slice(2)],
  { stdio: 'inherit', env: { ...process.env, CONTRACT_COVERAGE_DIR: coverageDir } },
);

let passed = 0;
let failed = 0;
try {
  const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as { numPassedTests: number; numFailedTests: number };
  passed = results.numPassedTests;
  failed = results.numFailedTests;
} catch {
  // no report: vitest itself failed
}
// A file that failed to load, or a failing hook, fails the run without failing a test: count it.
if (vitest.status !== 0 && failed === 0) failed = 1;

const filtered = process.argv.length > 2;
if (!filtered) {
  const missing = uncoveredDeclaredErrors(coverageDir);
  if (missing.length > 0) {
    console.error(`\nContract coverage: ${missing.length} declared responses were never produced by a test:`);
    for (const entry of missing) console.error(`  ${entry}`);
    failed += 1;
  } else {
    console.log('\nContract coverage: every declared success and error response was produced by a test.');
  }
}
rmSync(work, { recursive: true, force: true });
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(vitest.status === 0 && failed === 0 ? 0 : 1);
