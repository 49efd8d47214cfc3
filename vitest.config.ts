import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      '{codegen,server,protocol,client,react,scripts,testing}/src/**/*.test.{ts,tsx}',
      'examples/*/e2e/**/*.test.ts',
      'examples/cli/src/**/*.test.ts',
      'dashboard/e2e/**/*.test.ts',
      'docs/test/**/*.test.ts',
    ],
    globalSetup: ['scripts/src/testing/vitest-global-setup.ts'],
    // Files run in parallel on the machine's cores; each isolates itself with its own projects.
    pool: 'forks',
    testTimeout: 30_000,
    // Browser journeys poll the page; on a loaded machine a sign-up (argon2) can take seconds.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 60_000,
  },
});
