import type { Kysely } from 'kysely';
import type { ApiKeySetRow, Database, NewApiKeySetRow } from '../../db/schema.ts';
import type { ProjectKeyKind } from './key-format.ts';

export async function insertApiKeySet(db: Kysely<Database>, row: NewApiKeySetRow): Promise<ApiKeySetRow> {
  return db.insertInto('api_key_set').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findApiKeySetByDigest(db: Kysely<Database>, kind: ProjectKeyKind, digest: string): Promise<ApiKeySetRow | undefined> {
  return db.selectFrom('api_key_set').selectAll().where(`${kind}_hash`, '=', digest).executeTakeFirst();
}

export async function markApiKeySetRevoked(
  db: Kysely<Database>,
  projectId: string,
  id: string,
  at: Date,
): Promise<ApiKeySetRow | undefined> {
  return db
    .updateTable('api_key_set')
    .set({ manually_revoked_at: at })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}
