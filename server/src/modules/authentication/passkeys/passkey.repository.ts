import type { Insertable } from 'kysely';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { PasskeyRow, PasskeyTable } from './passkey.table.ts';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';

export function listPasskeysOfUser(db: DbHandle, projectId: ProjectId, userId: string): Promise<PasskeyRow[]> {
  return kyselyOf(db)
    .selectFrom('passkey')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

export function findPasskeyByCredentialId(db: DbHandle, projectId: ProjectId, credentialId: string): Promise<PasskeyRow | undefined> {
  return kyselyOf(db)
    .selectFrom('passkey')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('credential_id', '=', credentialId)
    .executeTakeFirst();
}

/**
 * Stores a credential, or replaces it when its user registers it again. Returns undefined when the
 * credential id already belongs to another user of the project.
 */
export async function upsertPasskey(
  db: DbHandle,
  projectId: ProjectId,
  row: Omit<Insertable<PasskeyTable>, 'project_id'>,
): Promise<PasskeyRow | undefined> {
  return kyselyOf(db)
    .insertInto('passkey')
    .values({ ...row, project_id: projectId })
    .onConflict((conflict) =>
      conflict
        .columns(['project_id', 'credential_id'])
        .doUpdateSet((eb) => ({
          public_key: eb.ref('excluded.public_key'),
          counter: eb.ref('excluded.counter'),
          transports: eb.ref('excluded.transports'),
          rp_id: eb.ref('excluded.rp_id'),
          device_type: eb.ref('excluded.device_type'),
          backed_up: eb.ref('excluded.backed_up'),
        }))
        .where('passkey.user_id', '=', row.user_id),
    )
    .returningAll()
    .executeTakeFirst();
}

/**
 * Moves the signature counter from `from` to `to` (compare and set, so of two sign-ins racing on
 * one counter value only one passes). False when the counter moved meanwhile.
 */
export async function advanceCounter(db: DbHandle, projectId: ProjectId, passkeyId: string, from: number, to: number): Promise<boolean> {
  const result = await kyselyOf(db)
    .updateTable('passkey')
    .set({ counter: to, last_used_at: new Date() })
    .where('project_id', '=', projectId)
    .where('id', '=', passkeyId)
    .where('counter', '=', from)
    .returning('id')
    .executeTakeFirst();
  return result !== undefined;
}

export async function deletePasskeysOfUser(db: DbHandle, projectId: ProjectId, userId: string): Promise<void> {
  await kyselyOf(db).deleteFrom('passkey').where('project_id', '=', projectId).where('user_id', '=', userId).execute();
}
