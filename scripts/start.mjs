// `pnpm start`, in plain JavaScript so that no TypeScript loader runs in the server's process.
// It builds what is stale (the compiled server, the example app, the dashboard, the docs site: once on a fresh clone,
// again only when their sources change), then runs the compiled server, which serves both web apps on
// its own port. EXAMPLE_APP_DIR="", DASHBOARD_DIR="" and DOCS_DIR="" leave each out. Development and the tests
// run the TypeScript sources through tsx instead (server/src/main.ts).
import { spawn } from 'node:child_process';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isBuildFresh, startBuilds } from './src/build/freshness.mjs';

const root = new URL('..', import.meta.url).pathname;
// A newcomer's start logs keys, codes and email links (no mail server needed); production says NODE_ENV=production.
if (process.env.DEVELOPMENT_MODE === undefined) process.env.DEVELOPMENT_MODE = process.env.NODE_ENV === 'production' ? 'false' : 'true';

/** @type {Array<'server' | 'example' | 'dashboard' | 'docs'>} */
const wanted = ['server'];
if (process.env.EXAMPLE_APP_DIR === undefined) wanted.push('example');
if (process.env.DASHBOARD_DIR === undefined) wanted.push('dashboard');
if (process.env.DOCS_DIR === undefined) wanted.push('docs');
/** Runs one build in its own process (ended with the platform's); resolves with its exit code. */
const runBuild = (name) =>
  new Promise((resolve) => {
    const build = spawn(process.execPath, ['--import', 'tsx', 'scripts/src/build/for-start.ts', name], { cwd: root, stdio: 'inherit' });
    const endBuild = () => build.kill();
    process.once('exit', endBuild);
    build.once('error', () => resolve(1));
    build.once('exit', (code) => {
      process.off('exit', endBuild);
      resolve(code ?? 1);
    });
  });

const stale = wanted.filter((name) => !isBuildFresh(name));
// The docs site is built beside the running platform rather than before it: it is the longest build, and a
// newcomer's first start should not wait for pages they may not open yet (/docs says it is being built until then).
if (stale.includes('docs')) {
  void runBuild('docs').then((code) => {
    if (code !== 0) console.error('The documentation site could not be built; /docs keeps answering 503. See the lines above.');
  });
}
// The others side by side: on a fresh clone they take the time of the longest (the example app's Zopfli copies)
// instead of their sum.
const exitCodes = await Promise.all(stale.filter((name) => name !== 'docs').map(runBuild));
const failed = exitCodes.find((code) => code !== 0);
if (failed !== undefined) process.exit(failed);
if (process.env.EXAMPLE_APP_DIR === undefined) process.env.EXAMPLE_APP_DIR = dirname(startBuilds.example.output);
if (process.env.DASHBOARD_DIR === undefined) process.env.DASHBOARD_DIR = dirname(startBuilds.dashboard.output);
if (process.env.DOCS_DIR === undefined) process.env.DOCS_DIR = dirname(startBuilds.docs.output);
await import(pathToFileURL(startBuilds.server.output).href);
