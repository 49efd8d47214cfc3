import { ensureDashboardBuilt, ensureExampleAppBuilt } from './example-app/build-example-app.ts';

/**
 * `pnpm start`: builds the example app and the dashboard when their sources changed (once on a fresh
 * clone), then starts the platform, which serves both on its own port. EXAMPLE_APP_DIR="" and
 * DASHBOARD_DIR="" leave either out.
 */
if (process.env.EXAMPLE_APP_DIR === undefined) process.env.EXAMPLE_APP_DIR = await ensureExampleAppBuilt();
if (process.env.DASHBOARD_DIR === undefined) process.env.DASHBOARD_DIR = await ensureDashboardBuilt();
await import('../../server/src/main.ts');
