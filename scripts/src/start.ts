import { ensureDashboardBuilt, ensureExampleAppBuilt } from './example-app/build-example-app.ts';

/**
 * `pnpm start`: builds the example app and the dashboard when their sources changed (once on a fresh
 * clone), then starts the platform, which serves both on its own port. EXAMPLE_APP_DIR="" and
 * DASHBOARD_DIR="" leave either out.
 */
// A newcomer's start logs keys, codes and email links (no mail server needed); production says NODE_ENV=production.
if (process.env.DEVELOPMENT_MODE === undefined) process.env.DEVELOPMENT_MODE = process.env.NODE_ENV === 'production' ? 'false' : 'true';
if (process.env.EXAMPLE_APP_DIR === undefined) process.env.EXAMPLE_APP_DIR = await ensureExampleAppBuilt();
if (process.env.DASHBOARD_DIR === undefined) process.env.DASHBOARD_DIR = await ensureDashboardBuilt();
await import('../../server/src/main.ts');
