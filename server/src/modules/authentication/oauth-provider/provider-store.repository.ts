import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';

/** What oidc-provider stores per entity (see its Adapter interface). */
export type StoredEntity = { payload: Record<string, unknown>; consumed: boolean };

export async function upsertEntity(
  db: DbHandle,
  projectId: ProjectId,
  model: string,
  id: string,
  payload: Record<string, unknown>,
  expiresInSeconds: number | undefined,
): Promise<void> {
  const values = {
    payload: JSON.stringify(payload),
    grant_id: typeof payload.grantId === 'string' ? payload.grantId : null,
    uid: typeof payload.uid === 'string' ? payload.uid : null,
    client_id: typeof payload.clientId === 'string' ? payload.clientId : typeof payload.client_id === 'string' ? payload.client_id : null,
    expires_at: expiresInSeconds ? new Date(Date.now() + expiresInSeconds * 1000) : null,
  };
  await kyselyOf(db)
    .insertInto('oauth_provider_entity')
    .values({ project_id: projectId, model, id, ...values })
    .onConflict((conflict) => conflict.columns(['project_id', 'model', 'id']).doUpdateSet(values))
    .execute();
}

export async function findEntity(
  db: DbHandle,
  projectId: ProjectId,
  model: string,
  by: { id: string } | { uid: string },
): Promise<StoredEntity | undefined> {
  let query = kyselyOf(db)
    .selectFrom('oauth_provider_entity')
    .select(['payload', 'consumed_at'])
    .where('project_id', '=', projectId)
    .where('model', '=', model)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())]));
  query = 'id' in by ? query.where('id', '=', by.id) : query.where('uid', '=', by.uid);
  const row = await query.executeTakeFirst();
  return row ? { payload: row.payload as Record<string, unknown>, consumed: row.consumed_at !== null } : undefined;
}

/**
 * Marks a code or token used, answering whether this call did (false: already used, or gone). The check and the
 * mark are one statement, so of concurrent uses exactly one sees true.
 */
export async function consumeEntity(db: DbHandle, projectId: ProjectId, model: string, id: string): Promise<boolean> {
  const result = await kyselyOf(db)
    .updateTable('oauth_provider_entity')
    .set({ consumed_at: new Date() })
    .where('project_id', '=', projectId)
    .where('model', '=', model)
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function destroyEntity(db: DbHandle, projectId: ProjectId, model: string, id: string): Promise<void> {
  await kyselyOf(db)
    .deleteFrom('oauth_provider_entity')
    .where('project_id', '=', projectId)
    .where('model', '=', model)
    .where('id', '=', id)
    .execute();
}

export async function revokeGrant(db: DbHandle, projectId: ProjectId, grantId: string): Promise<void> {
  await kyselyOf(db).deleteFrom('oauth_provider_entity').where('project_id', '=', projectId).where('grant_id', '=', grantId).execute();
}

/** Revokes the grant a code or token belongs to: every entity issued under it, and the grant itself. */
export async function revokeGrantOfEntity(db: DbHandle, projectId: ProjectId, model: string, id: string): Promise<void> {
  const row = await kyselyOf(db)
    .selectFrom('oauth_provider_entity')
    .select('grant_id')
    .where('project_id', '=', projectId)
    .where('model', '=', model)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row?.grant_id) return;
  await kyselyOf(db)
    .deleteFrom('oauth_provider_entity')
    .where('project_id', '=', projectId)
    .where((eb) => eb.or([eb('grant_id', '=', row.grant_id), eb.and([eb('model', '=', 'Grant'), eb('id', '=', row.grant_id)])]))
    .execute();
}

export async function deleteExpiredEntitiesAcrossProjects(db: DbHandle, before: Date): Promise<number> {
  const result = await kyselyOf(db).deleteFrom('oauth_provider_entity').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---- signing keys ----

export function listKeys(db: DbHandle, projectId: ProjectId) {
  return kyselyOf(db)
    .selectFrom('oauth_provider_key')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('created_at', 'desc')
    .execute();
}

export async function insertKey(db: DbHandle, projectId: ProjectId, kid: string, sealedJwk: string): Promise<void> {
  await kyselyOf(db).insertInto('oauth_provider_key').values({ project_id: projectId, kid, private_jwk: sealedJwk }).execute();
}

export async function retireKeysExcept(db: DbHandle, projectId: ProjectId, kid: string): Promise<void> {
  await kyselyOf(db)
    .updateTable('oauth_provider_key')
    .set({ retired_at: new Date() })
    .where('project_id', '=', projectId)
    .where('kid', '!=', kid)
    .where('retired_at', 'is', null)
    .execute();
}
