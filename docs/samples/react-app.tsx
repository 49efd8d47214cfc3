// #region app
import { GatehouseHandler, GatehouseProvider, UserButton, useLocation, useUser } from '@gatehouse/react';
import { Suspense } from 'react';
import { createRoot } from 'react-dom/client';

// From the start banner of `pnpm start` (or the dashboard's project page): public values.
const PROJECT_ID = 'your-project-id';
const PUBLISHABLE_KEY = 'pck_your_publishable_client_key';

function App() {
  const { pathname } = useLocation();
  // Sign-in, sign-up, account settings, password reset… all live under /handler/.
  if (pathname.startsWith('/handler/')) return <GatehouseHandler />;
  return <Home />;
}

function Home() {
  // Signed-out visitors are sent to sign in, and come back here afterwards.
  const user = useUser({ or: 'redirect' });
  return (
    <header>
      Hello {user.display_name ?? user.primary_email} <UserButton />
    </header>
  );
}

createRoot(document.getElementById('root')!).render(
  <GatehouseProvider projectId={PROJECT_ID} publishableClientKey={PUBLISHABLE_KEY} urls={{ afterSignIn: '/' }}>
    <Suspense fallback={<p>Loading…</p>}>
      <App />
    </Suspense>
  </GatehouseProvider>,
);
// #endregion app
