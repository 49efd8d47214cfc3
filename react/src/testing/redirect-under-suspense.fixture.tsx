import { StrictMode, Suspense, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { GatehouseProvider } from '../gatehouse-provider.tsx';
import { useUser } from '../hooks/use-user.ts';
import { type NavigateFunction, useLocation } from '../navigation.ts';

/**
 * The shape the README shows (one Suspense around the whole app, the routing inside it, a page that
 * needs a user): opened signed out, `useUser({ or: 'redirect' })` suspends while the app mounts and
 * leaves for the sign-in page. `window.ROUTER` picks whose navigation moves the app: the package's own
 * (History API + `useLocation()`) or a router of the app's that applies a navigation a little later
 * and tells only its own subscribers (as routers with a store of their own do).
 */
declare global {
  interface Window {
    ROUTER: 'gatehouse' | 'own';
  }
}

const ownRouterListeners = new Set<() => void>();
const ownRouter = {
  navigate: ((url, options) => {
    setTimeout(() => {
      if (options?.replace) window.history.replaceState(null, '', url);
      else window.history.pushState(null, '', url);
      for (const listener of ownRouterListeners) listener();
    }, 30);
  }) satisfies NavigateFunction,
  subscribe(listener: () => void) {
    ownRouterListeners.add(listener);
    return () => ownRouterListeners.delete(listener);
  },
};

function usePathname(): string {
  const gatehouse = useLocation().pathname;
  const own = useSyncExternalStore(ownRouter.subscribe, () => window.location.pathname);
  return window.ROUTER === 'own' ? own : gatehouse;
}

function App() {
  const pathname = usePathname();
  return pathname.startsWith('/handler/') ? <h1>Sign-in page</h1> : <ProtectedPage />;
}

function ProtectedPage() {
  const user = useUser({ or: 'redirect' });
  return <h1>Hello {user.primary_email}</h1>;
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <GatehouseProvider
      projectId="redirect-fixture"
      publishableClientKey="pck_fixture"
      baseUrl={window.location.origin}
      tokenStore="memory"
      {...(window.ROUTER === 'own' ? { navigate: ownRouter.navigate } : {})}
    >
      <Suspense fallback={<p>Loading…</p>}>
        <App />
      </Suspense>
    </GatehouseProvider>
  </StrictMode>,
);
