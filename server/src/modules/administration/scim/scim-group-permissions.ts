import type { DbHandle } from '../../../db/handle.ts';
import { mappedPermissions, type SsoConnectionService } from '../../authentication/sso/index.ts';
import type { PermissionService } from '../../organisations/permissions/index.ts';
import type { ScimContext } from './scim-directory.service.ts';
import * as repository from './scim.repository.ts';

/**
 * SCIM groups → team permissions, through the same `group_permissions` mapping the team's SSO connections apply to
 * the IdP's groups claim (a group matches by its displayName, or its externalId: Entra ID's claim carries group
 * object ids). The directory keeps a ledger of what it granted: a member gets what any of their groups maps to and
 * loses only what the directory granted and no group (of this or another directory of the team) grants any more.
 */
export class ScimGroupPermissions {
  constructor(
    private readonly permissions: PermissionService,
    private readonly connections: SsoConnectionService,
    private readonly log: (message: string) => void = (message) => console.warn(message),
  ) {}

  /** As `sync`, for SCIM user ids of the directory (a group's members). */
  async syncMembers(trx: DbHandle, context: ScimContext, scimUserIds: Iterable<string>): Promise<void> {
    const ids = new Set(scimUserIds);
    if (ids.size === 0 || !(await this.hasWork(trx, context))) return;
    const users = await repository.listScimUsers(trx, context.directory.id);
    await this.apply(
      trx,
      context,
      users.filter((row) => ids.has(row.id)).map((row) => row.user_id),
    );
  }

  /**
   * Whether group changes can change grants: the team maps groups to permissions, or the directory still holds
   * grants to take back. Most teams map none: their group changes then read neither the directory's users nor groups.
   */
  private async hasWork(trx: DbHandle, context: ScimContext): Promise<boolean> {
    if (Object.keys(await this.teamMapping(context)).length > 0) return true;
    return repository.directoryHasGrants(trx, context.project.id, context.directory.id);
  }

  /**
   * Takes back every grant the directory's groups gave a user who left the team (deactivated or deprovisioned): no
   * group is read, so this adds one query to deprovisioning when the directory granted nothing.
   */
  async dropAll(trx: DbHandle, context: ScimContext, userId: string): Promise<void> {
    const { project, directory } = context;
    for (const { permission_id } of await repository.listPermissionGrants(trx, project.id, directory.id, [userId])) {
      const row = { directory_id: directory.id, team_id: directory.team_id, user_id: userId, permission_id };
      await repository.deletePermissionGrant(trx, project.id, row);
      // The membership's end removed the grant itself; another directory's hold on it is not this one's to end.
    }
  }

  /** Brings the directory's grants of these project users in line with the groups as they now are (in `trx`). */
  async sync(trx: DbHandle, context: ScimContext, userIds: Iterable<string>): Promise<void> {
    if (await this.hasWork(trx, context)) await this.apply(trx, context, userIds);
  }

  private async apply(trx: DbHandle, context: ScimContext, userIds: Iterable<string>): Promise<void> {
    const affected = [...new Set(userIds)];
    if (affected.length === 0) return;
    const { project, directory } = context;
    // One change of a directory's grants at a time: each then reads the groups the one before it committed.
    await repository.lockDirectory(trx, project.id, directory.id);
    const wanted = await this.wantedGrants(trx, context, affected);
    const held = await repository.listPermissionGrants(trx, project.id, directory.id, affected);
    for (const userId of affected) {
      const want = wanted.get(userId) ?? new Set<string>();
      const had = new Set(held.filter((row) => row.user_id === userId).map((row) => row.permission_id));
      for (const permissionId of want) {
        if (had.has(permissionId)) continue;
        await this.permissions.grantTeam(project.id, directory.team_id, userId, permissionId, trx);
        await repository.insertPermissionGrant(trx, project.id, {
          directory_id: directory.id,
          team_id: directory.team_id,
          user_id: userId,
          permission_id: permissionId,
        });
      }
      for (const permissionId of had) {
        if (want.has(permissionId)) continue;
        const row = { directory_id: directory.id, team_id: directory.team_id, user_id: userId, permission_id: permissionId };
        await repository.deletePermissionGrant(trx, project.id, row);
        if (!(await repository.grantedByAnotherDirectory(trx, project.id, row)))
          await this.permissions.revokeTeamIfHeld(project.id, directory.team_id, userId, permissionId, trx);
      }
    }
  }

  /** What each affected user (active in the directory) should hold because of the groups they are in. */
  private async wantedGrants(trx: DbHandle, context: ScimContext, affected: string[]): Promise<Map<string, Set<string>>> {
    const { project, directory } = context;
    const mapping = await this.teamMapping(context);
    const users = (await repository.listScimUsers(trx, directory.id)).filter((row) => row.active && affected.includes(row.user_id));
    const groups = await repository.listScimGroups(trx, directory.id);
    const wanted = new Map<string, Set<string>>();
    for (const user of users) {
      const names = groups
        .filter((group) => group.member_ids.includes(user.id))
        .flatMap((group) => (group.external_id ? [group.display_name, group.external_id] : [group.display_name]));
      wanted.set(user.user_id, new Set(mappedPermissions({ group_permissions: mapping }, names)));
    }
    const all = [...new Set([...wanted.values()].flatMap((ids) => [...ids]))];
    const missing = await this.permissions.undefinedTeamPermissions(project.id, all, trx);
    if (missing.length > 0) {
      this.log(
        `SCIM directory ${directory.id} of project ${project.id}: groups map to team permissions that no longer exist, skipped: ${missing.join(', ')}`,
      );
      for (const ids of wanted.values()) for (const id of missing) ids.delete(id);
    }
    return wanted;
  }

  /** The team's group → permissions table: every SSO connection of the team's mapping, merged. */
  private async teamMapping(context: ScimContext): Promise<Record<string, string[]>> {
    const merged: Record<string, string[]> = {};
    for (const connection of await this.connections.list(context.project.id, context.directory.team_id)) {
      for (const [group, ids] of Object.entries(connection.attribute_mapping.group_permissions ?? {}))
        merged[group] = [...(merged[group] ?? []), ...ids];
    }
    return merged;
  }
}
