import { GatehouseHandler, Link, UserButton, useGatehouse, useLocation, useUser } from '@gatehouse/react';
import { lazy, Suspense } from 'react';

// Each page is its own chunk, as the handler pages are: a visitor of /handler/sign-in loads none of these.
const Home = lazy(() => import('./home.tsx').then((page) => ({ default: page.Home })));
const Protected = lazy(() => import('./protected.tsx').then((page) => ({ default: page.Protected })));
const Shop = lazy(() => import('./shop.tsx').then((page) => ({ default: page.Shop })));
// The team switcher (and its create-team form) only means something to a signed-in user: a visitor
// of the sign-in page never loads it.
const SelectedTeamSwitcher = lazy(() => import('./team-switcher.tsx').then((module) => ({ default: module.SelectedTeamSwitcher })));

function TeamSwitcherWhenSignedIn() {
  return useUser() ? <SelectedTeamSwitcher /> : null;
}

/** The whole routing of the example: the handler pages under /handler, two pages of its own. */
export function App() {
  const { urls } = useGatehouse();
  const { pathname } = useLocation();
  const page = pathname.startsWith(`${urls.handler}/`) ? (
    <GatehouseHandler />
  ) : pathname === '/protected' ? (
    <Protected />
  ) : pathname === '/shop' ? (
    <Shop />
  ) : (
    <Home />
  );
  return (
    <>
      <header className="app-header">
        <Link href="/" className="brand">
          Demo app
        </Link>
        <nav>
          <Link href="/protected">Protected page</Link> <Link href="/shop">Shop</Link>
        </nav>
        <div className="app-header-end">
          <Suspense fallback={null}>
            <TeamSwitcherWhenSignedIn />
            <UserButton />
          </Suspense>
        </div>
      </header>
      {/* Below the location subscription, so a page that suspends (or redirects) never hides the router. */}
      <main>
        <Suspense fallback={<p className="loading">Loading…</p>}>{page}</Suspense>
      </main>
    </>
  );
}
