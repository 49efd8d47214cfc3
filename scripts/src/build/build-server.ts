import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { withBuildLock } from '../example-app/build-example-app.ts';
import { isBuildFresh, startBuilds } from './freshness.mjs';

const serverDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../server');

/**
 * The compiled server: `server/dist/src/main.js`, one ES module bundling the server's and the
 * protocol's sources and the plain-JavaScript packages every start loads (`bundledPackages`); the other
 * installed packages stay external and load from server/node_modules, so the dynamic imports of heavy
 * ones stay lazy. It mirrors the source layout so that the files the code finds next to itself by
 * `import.meta.url` sit at the same relative places:
 * `dist/generated/openapi.json`, `dist/src/render-worker.mjs` (with the two modules it imports),
 * `dist/src/sandbox-runtime.entry.ts`.
 */
export const serverDist = join(serverDir, 'dist');
/** Written last: its time is the build's (freshness.mjs lists the sources it is compared with). */
export const serverEntry = startBuilds.server.output;

/** Builds the compiled server unless it is newer than every source; resolves to its entry file. */
export async function ensureServerBuilt(): Promise<string> {
  await withBuildLock(join(serverDir, '.build-lock'), async () => {
    if (!isBuildFresh('server')) await buildServer();
  });
  return serverEntry;
}

/**
 * Packages the server imports statically, inside the bundle (with what they import). Loaded from
 * node_modules they were about 540 ES and CommonJS modules that Node resolved, read, compiled and
 * linked one by one at every start (kysely alone 210): about 300 ms of the start-up's CPU
 * (issue #20). Only plain JavaScript that finds no file of its own at run time belongs here: not
 * @fastify/swagger-ui and @fastify/static (they serve files beside their sources), not the native
 * @node-rs bindings, nor any package the server imports dynamically (those load at first use).
 * The CommonJS ones among them `require` Node's built-in modules: the bundle's banner gives them a
 * `require` (`createRequire`).
 */
export const bundledPackages = [
  'kysely',
  'fastify',
  'fastify-plugin',
  '@fastify/cookie',
  '@fastify/cors',
  '@fastify/fast-json-stringify-compiler',
  '@fastify/formbody',
  '@fastify/rate-limit',
  'ajv',
  'ajv-formats',
  'jose',
  'openid-client',
  'standardwebhooks',
];

/** Assets the bundle reads or starts by path, copied beside it at their relative places. */
const assets: Array<[from: string, to: string]> = [
  ['src/generated/openapi.json', 'generated/openapi.json'],
  ['src/modules/messaging/email/rendering/render-worker.mjs', 'src/render-worker.mjs'],
  ['src/modules/messaging/email/rendering/render-output.mjs', 'src/render-output.mjs'],
  ['src/modules/messaging/email/rendering/variables-schema.mjs', 'src/variables-schema.mjs'],
  ['src/modules/messaging/email/rendering/sandbox-runtime.entry.ts', 'src/sandbox-runtime.entry.ts'],
];

export async function buildServer(): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(serverDir, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const installed = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter(
    (name) => !name.startsWith('@gatehouse/') && !bundledPackages.includes(name),
  );
  const unknown = bundledPackages.filter((name) => !(name in manifest.dependencies));
  if (unknown.length > 0) throw new Error(`bundledPackages names packages server/package.json does not depend on: ${unknown.join(', ')}`);
  rmSync(serverDist, { recursive: true, force: true });
  for (const [, to] of assets) mkdirSync(dirname(join(serverDist, to)), { recursive: true });
  for (const [from, to] of assets) copyFileSync(join(serverDir, from), join(serverDist, to));
  await build({
    entryPoints: [join(serverDir, 'src/main.ts')],
    outfile: serverEntry,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    // Every installed package (and its subpaths) stays an import resolved at run time from server/node_modules.
    external: installed.flatMap((name) => [name, `${name}/*`]),
    logLevel: 'warning',
    legalComments: 'none',
    banner: {
      js: "import { createRequire as __bundleCreateRequire } from 'node:module';\nconst require = __bundleCreateRequire(import.meta.url);",
    },
  });
}
