import type { Insertable, Updateable } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { ScimDirectoryRow, ScimDirectoryTable, ScimGroupRow, ScimGroupTable, ScimUserRow, ScimUserTable } from './scim.table.ts';

export const insertDirectory = (db: DbHandle, row: Insertable<ScimDirectoryTable>): Promise<ScimDirectoryRow> =>
  kyselyOf(db).insertInto('scim_directory').values(row).returningAll().executeTakeFirstOrThrow();

export const listDirectories = (db: DbHandle, projectId: ProjectId, teamId: string): Promise<ScimDirectoryRow[]> =>
  kyselyOf(db)
    .selectFrom('scim_directory')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .orderBy('created_at')
    .execute();

export async function deleteDirectory(
  db: DbHandle,
  projectId: ProjectId,
  teamId: string,
  id: string,
): Promise<ScimDirectoryRow | undefined> {
  return kyselyOf(db)
    .deleteFrom('scim_directory')
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** A new token for the directory; the one it replaces stays valid until `previousExpiresAt` (null: at once). */
export const rotateDirectoryToken = (
  db: DbHandle,
  projectId: ProjectId,
  teamId: string,
  id: string,
  change: { tokenHash: string; previousExpiresAt: Date | null },
): Promise<ScimDirectoryRow | undefined> =>
  kyselyOf(db)
    .updateTable('scim_directory')
    .set((eb) => ({
      previous_token_hash: change.previousExpiresAt ? eb.ref('token_hash') : null,
      previous_token_expires_at: change.previousExpiresAt,
      token_hash: change.tokenHash,
      token_rotated_at: new Date(),
    }))
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();

/** Any project's directory by id: the bearer token, not project headers, authenticates SCIM requests. */
export const findDirectoryInAnyProject = (db: DbHandle, id: string): Promise<ScimDirectoryRow | undefined> =>
  kyselyOf(db).selectFrom('scim_directory').selectAll().where('id', '=', id).executeTakeFirst();

export const insertScimUser = (db: DbHandle, row: Insertable<ScimUserTable>): Promise<ScimUserRow> =>
  kyselyOf(db).insertInto('scim_user').values(row).returningAll().executeTakeFirstOrThrow();

export const updateScimUser = (db: DbHandle, directoryId: string, id: string, changes: Updateable<ScimUserTable>): Promise<ScimUserRow> =>
  kyselyOf(db)
    .updateTable('scim_user')
    .set({ ...changes, updated_at: new Date() })
    .where('directory_id', '=', directoryId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();

/** A live (not deprovisioned) SCIM user of the directory, locked for the change about to be made. */
export const findScimUser = (db: DbHandle, directoryId: string, id: string): Promise<ScimUserRow | undefined> =>
  kyselyOf(db)
    .selectFrom('scim_user')
    .selectAll()
    .where('directory_id', '=', directoryId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();

export const listScimUsers = (db: DbHandle, directoryId: string): Promise<ScimUserRow[]> =>
  kyselyOf(db)
    .selectFrom('scim_user')
    .selectAll()
    .where('directory_id', '=', directoryId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

export const insertScimGroup = (db: DbHandle, row: Insertable<ScimGroupTable>): Promise<ScimGroupRow> =>
  kyselyOf(db).insertInto('scim_group').values(row).returningAll().executeTakeFirstOrThrow();

export const updateScimGroup = (
  db: DbHandle,
  directoryId: string,
  id: string,
  changes: Updateable<ScimGroupTable>,
): Promise<ScimGroupRow> =>
  kyselyOf(db)
    .updateTable('scim_group')
    .set({ ...changes, updated_at: new Date() })
    .where('directory_id', '=', directoryId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();

export const findScimGroup = (db: DbHandle, directoryId: string, id: string): Promise<ScimGroupRow | undefined> =>
  kyselyOf(db)
    .selectFrom('scim_group')
    .selectAll()
    .where('directory_id', '=', directoryId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();

export const deleteScimGroup = async (db: DbHandle, directoryId: string, id: string): Promise<boolean> =>
  Number(
    (await kyselyOf(db).deleteFrom('scim_group').where('directory_id', '=', directoryId).where('id', '=', id).executeTakeFirst())
      .numDeletedRows,
  ) > 0;

export const listScimGroups = (db: DbHandle, directoryId: string): Promise<ScimGroupRow[]> =>
  kyselyOf(db).selectFrom('scim_group').selectAll().where('directory_id', '=', directoryId).orderBy('created_at').orderBy('id').execute();
