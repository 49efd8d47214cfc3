import { createServerApp } from '@gatehouse/client';

const gatehouse = createServerApp({ baseUrl: 'http://localhost:8102', projectId: 'your-project-id', secretServerKey: 'ssk_…' });

// #region vault
// The store `tax-ids` is declared in the project's config (dashboard → Data vault).
const taxIds = gatehouse.dataVault.getStore('tax-ids');
// The secret never reaches Gatehouse: values are encrypted and keys hashed with it before they are sent.
const secret = process.env.VAULT_SECRET!;

export async function saveTaxId(userId: string, taxId: string): Promise<void> {
  await taxIds.setValue(userId, taxId, { secret });
}

export async function readTaxId(userId: string): Promise<string | null> {
  return taxIds.getValue(userId, { secret });
}
// #endregion vault
