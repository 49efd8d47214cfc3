import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { ApiKeySetRow, NewApiKeySetRow } from './api-key-set.table.ts';
import type { ProjectKeyKind } from './key-format.ts';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';

export async function insertApiKeySet(db: DbHandle, row: NewApiKeySetRow): Promise<ApiKeySetRow> {
  return kyselyOf(db).insertInto('api_key_set').values(row).returningAll().executeTakeFirstOrThrow();
}

/** The key set of the project holding this key (by its digest). */
export async function findApiKeySetByDigest(
  db: DbHandle,
  projectId: ProjectId,
  kind: ProjectKeyKind,
  digest: string,
): Promise<ApiKeySetRow | undefined> {
  return kyselyOf(db)
    .selectFrom('api_key_set')
    .selectAll()
    .where(`${kind}_hash`, '=', digest)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}

export async function markApiKeySetRevoked(db: DbHandle, projectId: ProjectId, id: string, at: Date): Promise<ApiKeySetRow | undefined> {
  return kyselyOf(db)
    .updateTable('api_key_set')
    .set({ manually_revoked_at: at })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function listApiKeySets(db: DbHandle, projectId: ProjectId): Promise<ApiKeySetRow[]> {
  return kyselyOf(db).selectFrom('api_key_set').selectAll().where('project_id', '=', projectId).orderBy('created_at', 'desc').execute();
}

export async function findApiKeySet(db: DbHandle, projectId: ProjectId, id: string): Promise<ApiKeySetRow | undefined> {
  return kyselyOf(db).selectFrom('api_key_set').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

export async function describeApiKeySet(
  db: DbHandle,
  projectId: ProjectId,
  id: string,
  description: string,
): Promise<ApiKeySetRow | undefined> {
  return kyselyOf(db)
    .updateTable('api_key_set')
    .set({ description })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Whichever project holds this key: a lookup across tenants, for the first-start seeding only. */
export async function findApiKeySetByDigestInAnyProject(
  db: DbHandle,
  kind: ProjectKeyKind,
  digest: string,
): Promise<ApiKeySetRow | undefined> {
  return kyselyOf(db).selectFrom('api_key_set').selectAll().where(`${kind}_hash`, '=', digest).executeTakeFirst();
}
