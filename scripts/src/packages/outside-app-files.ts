import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PackedPackage } from './pack-packages.ts';

const repositoryRoot = resolve(import.meta.dirname, '../../..');

/** The version the workspace itself builds with, so the app meets no surprise and npm's cache stays warm. */
function workspaceVersion(name: string): string {
  const from = name === 'typescript' ? repositoryRoot : join(repositoryRoot, 'examples/demo');
  return (JSON.parse(readFileSync(join(from, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * A Vite + React + TypeScript app as `npm create vite` lays one out (react-ts template), written by
 * hand because the registry's template fetch is not needed: package.json, tsconfig (strict, and
 * `skipLibCheck: false` so every shipped declaration is checked), index.html, a main and an app that
 * use the provider with `baseUrl`, the handler pages and `useUser`.
 */
export function outsideAppFiles(packages: PackedPackage[], platform: { url: string; projectId: string; publishableClientKey: string }) {
  const version = (name: string) => [name, workspaceVersion(name)] as const;
  const packageJson = {
    name: 'outside-app',
    private: true,
    type: 'module',
    dependencies: Object.fromEntries([
      ...packages.map(({ name, tarball }) => [name, `file:${tarball}`] as const),
      version('@tanstack/react-query'),
      version('react'),
      version('react-dom'),
    ]),
    devDependencies: Object.fromEntries([
      version('@types/react'),
      version('@types/react-dom'),
      version('@vitejs/plugin-react'),
      version('typescript'),
      version('vite'),
    ]),
  };
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      module: 'ESNext',
      moduleResolution: 'bundler',
      jsx: 'react-jsx',
      types: ['vite/client'],
      strict: true,
      noUncheckedIndexedAccess: true,
      verbatimModuleSyntax: true,
      allowImportingTsExtensions: true,
      skipLibCheck: false,
      noEmit: true,
    },
    // vite.config.ts runs in Node: create-vite checks it apart, with @types/node; the app is what matters here.
    include: ['src'],
  };
  return {
    'package.json': `${JSON.stringify(packageJson, null, 2)}\n`,
    'tsconfig.json': `${JSON.stringify(tsconfig, null, 2)}\n`,
    '.env': [
      `VITE_GATEHOUSE_URL=${platform.url}`,
      `VITE_GATEHOUSE_PROJECT_ID=${platform.projectId}`,
      `VITE_GATEHOUSE_PUBLISHABLE_CLIENT_KEY=${platform.publishableClientKey}`,
      '',
    ].join('\n'),
    'vite.config.ts': `import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({ plugins: [react()] });
`,
    'index.html': `<!doctype html>
<html lang="en">
  <head><meta charset="UTF-8" /><title>Outside app</title></head>
  <body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body>
</html>
`,
    'src/main.tsx': `import { GatehouseProvider } from '@gatehouse/react';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('no #root');
createRoot(root).render(
  <StrictMode>
    <GatehouseProvider
      baseUrl={import.meta.env.VITE_GATEHOUSE_URL}
      projectId={import.meta.env.VITE_GATEHOUSE_PROJECT_ID}
      publishableClientKey={import.meta.env.VITE_GATEHOUSE_PUBLISHABLE_CLIENT_KEY}
      urls={{ afterSignIn: '/', afterSignUp: '/', afterSignOut: '/' }}
    >
      <Suspense fallback={<p>Loading…</p>}>
        <App />
      </Suspense>
    </GatehouseProvider>
  </StrictMode>,
);
`,
    'src/app.tsx': `import { GatehouseHandler, Link, useGatehouse, useLocation, useSignOut, useUser } from '@gatehouse/react';
import type { KnownError } from '@gatehouse/protocol/errors';

function Home() {
  const user = useUser();
  const signOut = useSignOut();
  if (!user) {
    return (
      <p>
        <Link href="/handler/sign-up">Sign up</Link> <Link href="/handler/sign-in">Sign in</Link>
      </p>
    );
  }
  return (
    <p>
      <span data-testid="user">Signed in as {user.primary_email}</span> <button type="button" onClick={() => void signOut()}>Sign out</button>
    </p>
  );
}

/** A type from the protocol package, so its declarations are checked too. */
export const describeError = (error: KnownError): string => error.code;

export function App() {
  const { urls } = useGatehouse();
  const { pathname } = useLocation();
  return pathname.startsWith(\`\${urls.handler}/\`) ? <GatehouseHandler /> : <Home />;
}
`,
    'src/vite-env.d.ts': `/// <reference types="vite/client" />
interface ImportMetaEnv {
  readonly VITE_GATEHOUSE_URL: string;
  readonly VITE_GATEHOUSE_PROJECT_ID: string;
  readonly VITE_GATEHOUSE_PUBLISHABLE_CLIENT_KEY: string;
}
`,
  };
}
