import { GatehouseProvider } from '@gatehouse/react';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import './app.css';

declare global {
  interface Window {
    GATEHOUSE_CONFIG: { projectId: string; publishableClientKey: string };
  }
}

const { projectId, publishableClientKey } = window.GATEHOUSE_CONFIG;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <GatehouseProvider projectId={projectId} publishableClientKey={publishableClientKey} urls={{ afterSignIn: '/', afterSignUp: '/' }}>
      <Suspense fallback={<p className="loading">Loading…</p>}>
        <App />
      </Suspense>
    </GatehouseProvider>
  </StrictMode>,
);
