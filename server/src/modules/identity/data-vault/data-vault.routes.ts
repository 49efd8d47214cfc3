import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import { authOf } from '../../../request-context/auth-of.ts';
import type { DataVaultService } from './data-vault.service.ts';

export function dataVaultHandlers({ dataVault }: { dataVault: DataVaultService }) {
  return {
    getDataVaultValue: async (request) => ({
      encrypted_value: await dataVault.get(authOf(request).project, request.params.id, request.body.hashed_key),
    }),
    setDataVaultValue: async (request) => {
      await dataVault.set(authOf(request).project, request.params.id, request.body.hashed_key, request.body.encrypted_value);
      return { success: true as const };
    },
  } satisfies Partial<OperationHandlers>;
}
