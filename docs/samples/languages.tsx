// #region provider
import { GatehouseHandler, GatehouseProvider } from '@gatehouse/react';

export function GermanSignIn({ projectId, publishableClientKey }: { projectId: string; publishableClientKey: string }) {
  return (
    <GatehouseProvider projectId={projectId} publishableClientKey={publishableClientKey} lang="de">
      <GatehouseHandler />
    </GatehouseProvider>
  );
}
// #endregion provider
