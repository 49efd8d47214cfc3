import type { Insertable, Selectable } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { PaymentPurchaseCodeTable } from './payment.table.ts';

/** Purchase codes: the one-use links a purchase starts from. */

export type PurchaseCodeRow = Selectable<PaymentPurchaseCodeTable>;

export async function insertPurchaseCode(db: DbHandle, row: Insertable<PaymentPurchaseCodeTable>): Promise<void> {
  await kyselyOf(db).insertInto('payment_purchase_code').values(row).execute();
}

export function findPurchaseCode(db: DbHandle, projectId: ProjectId, codeHash: string): Promise<PurchaseCodeRow | undefined> {
  return kyselyOf(db)
    .selectFrom('payment_purchase_code')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('code_hash', '=', codeHash)
    .executeTakeFirst();
}

/** Marks an unused, unexpired code used; false when another purchase used it first (or it expired). */
export async function usePurchaseCode(db: DbHandle, projectId: ProjectId, id: string, now: Date): Promise<boolean> {
  const result = await kyselyOf(db)
    .updateTable('payment_purchase_code')
    .set({ used_at: now })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export function findPurchaseCodeById(db: DbHandle, projectId: ProjectId, id: string): Promise<PurchaseCodeRow | undefined> {
  return kyselyOf(db)
    .selectFrom('payment_purchase_code')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
}
