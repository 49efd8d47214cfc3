import { ensureDashboardBuilt, ensureExampleAppBuilt } from '../example-app/build-example-app.ts';
import { ensureDocsBuilt } from './build-docs.ts';
import { ensureServerBuilt } from './build-server.ts';

/** `pnpm start` (scripts/start.mjs) runs this when a build it needs is stale: `for-start.ts server example dashboard docs`. */
const builders = { server: ensureServerBuilt, example: ensureExampleAppBuilt, dashboard: ensureDashboardBuilt, docs: ensureDocsBuilt };
for (const name of process.argv.slice(2)) {
  const builder = builders[name as keyof typeof builders];
  if (!builder) throw new Error(`unknown build ${name}`);
  const started = Date.now();
  await builder();
  console.log(`built ${name} (${Date.now() - started} ms)`);
}
