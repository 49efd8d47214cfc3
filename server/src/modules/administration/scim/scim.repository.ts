import type { Insertable, Updateable } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type {
  ScimDirectoryRow,
  ScimDirectoryTable,
  ScimGroupRow,
  ScimGroupTable,
  ScimPermissionGrantTable,
  ScimUserRow,
  ScimUserTable,
} from './scim.table.ts';

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

/** Locks the directory's row: group-permission changes of one directory are made one after another. */
export const lockDirectory = async (db: DbHandle, projectId: ProjectId, id: string): Promise<void> => {
  await kyselyOf(db)
    .selectFrom('scim_directory')
    .select('id')
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .forUpdate()
    .execute();
};

/** Whether the directory holds any grant through its groups (none: a team without a mapping has nothing to sync). */
export const directoryHasGrants = async (db: DbHandle, projectId: ProjectId, directoryId: string): Promise<boolean> =>
  (await kyselyOf(db)
    .selectFrom('scim_permission_grant')
    .select('user_id')
    .where('project_id', '=', projectId)
    .where('directory_id', '=', directoryId)
    .limit(1)
    .executeTakeFirst()) !== undefined;

/** The permissions the directory granted through its groups to these users of its team. */
export const listPermissionGrants = (db: DbHandle, projectId: ProjectId, directoryId: string, userIds: string[]) =>
  userIds.length === 0
    ? Promise.resolve([])
    : kyselyOf(db)
        .selectFrom('scim_permission_grant')
        .select(['user_id', 'permission_id'])
        .where('project_id', '=', projectId)
        .where('directory_id', '=', directoryId)
        .where('user_id', 'in', userIds)
        .execute();

export const insertPermissionGrant = (db: DbHandle, projectId: ProjectId, row: Omit<Insertable<ScimPermissionGrantTable>, 'project_id'>) =>
  kyselyOf(db)
    .insertInto('scim_permission_grant')
    .values({ ...row, project_id: projectId })
    .onConflict((conflict) => conflict.doNothing())
    .execute();

export const deletePermissionGrant = (
  db: DbHandle,
  projectId: ProjectId,
  row: { directory_id: string; user_id: string; permission_id: string },
) =>
  kyselyOf(db)
    .deleteFrom('scim_permission_grant')
    .where('project_id', '=', projectId)
    .where('directory_id', '=', row.directory_id)
    .where('user_id', '=', row.user_id)
    .where('permission_id', '=', row.permission_id)
    .execute();

/** Whether another directory of the team still grants the member this permission through its groups. */
export const grantedByAnotherDirectory = async (
  db: DbHandle,
  projectId: ProjectId,
  row: { directory_id: string; team_id: string; user_id: string; permission_id: string },
): Promise<boolean> =>
  (await kyselyOf(db)
    .selectFrom('scim_permission_grant')
    .select('directory_id')
    .where('project_id', '=', projectId)
    .where('team_id', '=', row.team_id)
    .where('user_id', '=', row.user_id)
    .where('permission_id', '=', row.permission_id)
    .where('directory_id', '!=', row.directory_id)
    .executeTakeFirst()) !== undefined;
