import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';

export async function findDataVaultValue(db: DbHandle, projectId: ProjectId, slot: string): Promise<string | undefined> {
  const row = await kyselyOf(db)
    .selectFrom('data_vault_entry')
    .select('sealed_value')
    .where('project_id', '=', projectId)
    .where('slot', '=', slot)
    .executeTakeFirst();
  return row?.sealed_value;
}

export async function upsertDataVaultValue(db: DbHandle, projectId: ProjectId, slot: string, sealedValue: string): Promise<void> {
  await kyselyOf(db)
    .insertInto('data_vault_entry')
    .values({ project_id: projectId, slot, sealed_value: sealedValue })
    .onConflict((conflict) => conflict.columns(['project_id', 'slot']).doUpdateSet({ sealed_value: sealedValue, updated_at: new Date() }))
    .execute();
}
