import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const entry = fileURLToPath(new URL('./sandbox-runtime.entry.ts', import.meta.url));

let runtimeScript: Promise<string> | undefined;

/**
 * The script every sandbox evaluates first (see sandbox-runtime.entry.ts), bundled once per process
 * from the installed packages: React and its synchronous server renderer (the legacy one, which
 * needs no streams or TextEncoder), the @react-email components, minified, about 120 kB.
 */
export function sandboxRuntimeScript(): Promise<string> {
  runtimeScript ??= bundleRuntime().catch((error: unknown) => {
    runtimeScript = undefined;
    throw error;
  });
  return runtimeScript;
}

async function bundleRuntime(): Promise<string> {
  const legacyServer = require
    .resolve('react-dom/server.browser')
    .replace(/server\.browser\.js$/, 'cjs/react-dom-server-legacy.browser.production.js');
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
    plugins: [
      {
        name: 'legacy-server-renderer',
        setup(plugin) {
          plugin.onResolve({ filter: /^react-dom\/server$/ }, () => ({ path: legacyServer }));
        },
      },
    ],
  });
  return result.outputFiles[0]!.text;
}
