/** What the snippets of "Connect your app" fill in: the platform's URL, the project and its keys (or placeholders). */
export type ConnectValues = { baseUrl: string; projectId: string; publishableClientKey: string };

/** The env variable the server snippets read the secret key from: a secret is never pasted into code. */
export const secretKeyEnv = { gatehouse: 'GATEHOUSE_SECRET_SERVER_KEY', stack: 'STACK_SECRET_SERVER_KEY' } as const;

export function gatehouseReact({ baseUrl, projectId, publishableClientKey }: ConnectValues): string {
  return `// npm install @gatehouse/react react react-dom
import { GatehouseHandler, GatehouseProvider, useLocation, useUser } from '@gatehouse/react';
import { Suspense } from 'react';
import { createRoot } from 'react-dom/client';

function App() {
  const { pathname } = useLocation();
  if (pathname.startsWith('/handler/')) return <GatehouseHandler />; // sign-in, sign-up, account settings…
  return <Home />;
}

function Home() {
  const user = useUser({ or: 'redirect' }); // signed-out visitors go to sign in and come back
  return <p>Hello {user.primary_email}</p>;
}

createRoot(document.getElementById('root')!).render(
  <GatehouseProvider baseUrl="${baseUrl}" projectId="${projectId}" publishableClientKey="${publishableClientKey}">
    <Suspense fallback={<p>Loading…</p>}>
      <App />
    </Suspense>
  </GatehouseProvider>,
);`;
}

export function gatehouseServer({ baseUrl, projectId }: ConnectValues): string {
  return `// npm install @gatehouse/client
import { createServerApp } from '@gatehouse/client';

const gatehouse = createServerApp({
  baseUrl: '${baseUrl}',
  projectId: '${projectId}',
  secretServerKey: process.env.${secretKeyEnv.gatehouse}!,
});

// In a request handler: the browser sends its access token (useGatehouse().session.getAccessToken())
// as x-stack-access-token; null when it is not a signed-in user of this project.
const user = await gatehouse.users.getByAccessToken(request.headers['x-stack-access-token']);`;
}

export function stackReact({ baseUrl, projectId, publishableClientKey }: ConnectValues): string {
  return `// npm install @stackframe/react react-router-dom
import { StackClientApp, StackHandler, StackProvider, StackTheme, useUser } from '@stackframe/react';
import { Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes, useLocation, useNavigate } from 'react-router-dom';

const stackApp = new StackClientApp({
  baseUrl: '${baseUrl}', // this Gatehouse server instead of Stack's cloud
  projectId: '${projectId}',
  publishableClientKey: '${publishableClientKey}',
  tokenStore: 'cookie',
  redirectMethod: { useNavigate },
});

function HandlerRoutes() {
  return <StackHandler app={stackApp} location={useLocation().pathname} fullPage />;
}

function Home() {
  const user = useUser({ or: 'redirect' });
  return <p>Hello {user.primaryEmail}</p>;
}

createRoot(document.getElementById('root')!).render(
  <Suspense fallback={<p>Loading…</p>}>
    <BrowserRouter>
      <StackProvider app={stackApp}>
        <StackTheme>
          <Routes>
            <Route path="/handler/*" element={<HandlerRoutes />} />
            <Route path="/" element={<Home />} />
          </Routes>
        </StackTheme>
      </StackProvider>
    </BrowserRouter>
  </Suspense>,
);`;
}

export function stackServer({ baseUrl, projectId, publishableClientKey }: ConnectValues): string {
  return `// npm install @stackframe/js
import { StackServerApp } from '@stackframe/js';

const stackServerApp = new StackServerApp({
  baseUrl: '${baseUrl}', // this Gatehouse server instead of Stack's cloud
  projectId: '${projectId}',
  publishableClientKey: '${publishableClientKey}',
  secretServerKey: process.env.${secretKeyEnv.stack},
  tokenStore: 'memory',
});

// In a request handler (a fetch Request): the browser sends await user.getAuthHeaders().
const user = await stackServerApp.getUser({ tokenStore: request });`;
}
