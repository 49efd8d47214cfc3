import { defineModule } from '../../../kernel/module.ts';
import { dataVaultHandlers } from './data-vault.routes.ts';
import { DataVaultService } from './data-vault.service.ts';
import * as migration0042 from './migrations/0042-data-vault.ts';

/** The data vault: values stored per configured store (`dataVault.stores.<id>`), encrypted client-side and again at rest. */
export const dataVaultModule = defineModule({
  name: 'data-vault',
  migrations: { '0042-data-vault': migration0042 },
  services: (_needs, { db, serverSecret }) => ({ dataVault: new DataVaultService(db, serverSecret) }),
  handlers: dataVaultHandlers,
});
