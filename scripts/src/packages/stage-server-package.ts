import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureServerBuilt, serverDist } from '../build/build-server.ts';
import { ensureDashboardBuilt } from '../example-app/build-example-app.ts';

/**
 * `@gatehouse/server`'s `prepack`: what its tarball ships, laid out in `server/dist` — the compiled
 * server (built when stale) and the built dashboard beside it (`dist/web/dashboard`), which the
 * package's `gatehouse` command serves at `/dashboard`.
 */
await ensureServerBuilt();
const dashboard = await ensureDashboardBuilt();
const staged = join(serverDist, 'web/dashboard');
rmSync(staged, { recursive: true, force: true });
cpSync(dashboard, staged, { recursive: true });
