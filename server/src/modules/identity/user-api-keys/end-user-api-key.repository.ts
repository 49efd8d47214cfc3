import type { Insertable, Updateable } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { EndUserApiKeyRow, EndUserApiKeyTable } from './end-user-api-key.table.ts';

/** Whose keys: a user's (user_id) or a team's (team_id). */
export type OwnerColumn = { column: 'user_id' | 'team_id'; id: string };

export async function insertKey(db: DbHandle, row: Insertable<EndUserApiKeyTable>): Promise<EndUserApiKeyRow> {
  return kyselyOf(db).insertInto('end_user_api_key').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function listKeys(db: DbHandle, projectId: ProjectId, owner: OwnerColumn): Promise<EndUserApiKeyRow[]> {
  return kyselyOf(db)
    .selectFrom('end_user_api_key')
    .selectAll()
    .where('project_id', '=', projectId)
    .where(owner.column, '=', owner.id)
    .orderBy('created_at', 'desc')
    .execute();
}

export async function findKey(
  db: DbHandle,
  projectId: ProjectId,
  owner: OwnerColumn,
  keyId: string,
): Promise<EndUserApiKeyRow | undefined> {
  return kyselyOf(db)
    .selectFrom('end_user_api_key')
    .selectAll()
    .where('project_id', '=', projectId)
    .where(owner.column, '=', owner.id)
    .where('id', '=', keyId)
    .executeTakeFirst();
}

export async function updateKey(
  db: DbHandle,
  projectId: ProjectId,
  keyId: string,
  changes: Updateable<EndUserApiKeyTable>,
): Promise<EndUserApiKeyRow> {
  return kyselyOf(db)
    .updateTable('end_user_api_key')
    .set(changes)
    .where('project_id', '=', projectId)
    .where('id', '=', keyId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findKeyByHash(db: DbHandle, projectId: ProjectId, keyHash: string): Promise<EndUserApiKeyRow | undefined> {
  return kyselyOf(db)
    .selectFrom('end_user_api_key')
    .selectAll()
    .where('key_hash', '=', keyHash)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}
