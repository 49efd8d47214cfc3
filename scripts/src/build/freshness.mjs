// Plain JavaScript: `pnpm start` (scripts/start.mjs) checks its builds with it before any TypeScript
// loader runs, and the TypeScript build scripts use the same rules.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));
/** What every web app's build depends on besides its own folder: the workspace packages it bundles and the build scripts. */
const webAppSharedSources = [
  'react/src',
  'client/src',
  'protocol/src',
  'scripts/src/build/precompress.ts',
  'scripts/src/example-app/build-example-app.ts',
];

/**
 * What `pnpm start` needs built: each build's output file (written last) and the sources it is made from.
 * A web app's output is a stamp written after Vite and the precompressed copies: a build killed between the two,
 * or a `dist` from before precompression, is not taken for a finished one.
 */
export const startBuilds = {
  server: {
    output: join(root, 'server/dist/src/main.js'),
    // The lockfile too: the bundle holds some installed packages (build-server.ts, bundledPackages).
    sources: ['server/src', 'server/package.json', 'pnpm-lock.yaml', 'protocol/src', 'scripts/src/build/build-server.ts'].map((path) =>
      join(root, path),
    ),
  },
  example: {
    output: join(root, 'examples/demo/dist/.build-complete'),
    sources: ['examples/demo/src', 'examples/demo/index.html', 'examples/demo/vite.config.ts', ...webAppSharedSources].map((path) =>
      join(root, path),
    ),
  },
  dashboard: {
    output: join(root, 'dashboard/dist/.build-complete'),
    sources: ['dashboard/src', 'dashboard/index.html', 'dashboard/vite.config.ts', ...webAppSharedSources].map((path) => join(root, path)),
  },
  // The documentation site: its pages, samples and config (not `.vitepress/cache`, which VitePress writes itself).
  docs: {
    output: join(root, 'docs/.vitepress/dist/.build-complete'),
    sources: [
      'docs/index.md',
      'docs/guide',
      'docs/reference',
      'docs/protocol',
      'docs/architecture',
      'docs/performance.md',
      'docs/features.md',
      'docs/samples',
      'docs/public',
      'docs/.vitepress/config.ts',
      'docs/.vitepress/sidebar.ts',
      'docs/.vitepress/theme',
      'docs/package.json',
      'scripts/src/build/build-docs.ts',
    ].map((path) => join(root, path)),
  },
};

/** The newest modification time among the given files and folders (tests, dist and node_modules left out). */
export function newestSource(paths) {
  let newest = 0;
  const visit = (path) => {
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) {
        if (entry === 'node_modules' || entry === 'dist' || entry.endsWith('.test.ts') || entry.endsWith('.test.tsx')) continue;
        visit(join(path, entry));
      }
    } else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const path of paths) if (existsSync(path)) visit(path);
  return newest;
}

/** True when the build's output exists and is newer than every one of its sources. */
export function isBuildFresh(name) {
  return isOutputFresh(startBuilds[name]);
}

/** True when `output` exists and is newer than every one of `sources`. */
export function isOutputFresh({ output, sources }) {
  if (!existsSync(output)) return false;
  return newestSource(sources) < statSync(output).mtimeMs;
}
