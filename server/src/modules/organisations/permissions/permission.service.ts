import {
  ContainedPermissionNotFoundError,
  PermissionContainmentCycleError,
  PermissionIdAlreadyExistsError,
  PermissionNotFoundError,
  TeamMembershipNotFoundError,
  TeamPermissionNotFoundError,
  TeamPermissionRequiredError,
  UserNotFoundError,
  WrongPermissionScopeError,
} from '@gatehouse/protocol/errors';
import { type DbHandle, inTransaction } from '../../../db/handle.ts';
import { Port } from '../../../kernel/hook.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { EventLog } from '../../platform/events/index.ts';
import type { UserService } from '../../identity/users/index.ts';
import type { PermissionDefinitionRow } from './permission.table.ts';
import {
  deleteDefinition,
  deleteProjectGrant,
  deleteTeamGrant,
  findDefinition,
  insertDefinitions,
  insertProjectGrant,
  insertTeamGrant,
  listDefinitions,
  listDirectProjectGrants,
  listDirectTeamGrants,
  listProjectGrantRows,
  listTeamGrantRows,
  loadClosure,
  reaches,
  lockDefinitions,
  rebuildClosure,
  renameDefinition,
  type Scope,
  updateDefinition,
} from './permission.repository.ts';
import { PermissionClosureCache } from './closure-cache.ts';
import { effectiveGrants } from './effective-grants.ts';
import { defaultTeamRoles, isSystemPermission, systemTeamPermissions } from './system-permissions.ts';

export type DefinitionView = { id: string; description?: string; contained_permission_ids: string[] };
export type DefinitionWrite = { id?: string; description?: string; contained_permission_ids?: string[] };

const toView = (row: PermissionDefinitionRow): DefinitionView => ({
  id: row.id,
  ...(row.description !== null ? { description: row.description } : {}),
  contained_permission_ids: [...row.contained_ids].sort(),
});

/** What permissions need of the project: its default-permission lists name only permissions that exist. */
export interface DefaultPermissionLists {
  /** Rewrites the three lists in the transaction that renamed or deleted a permission. */
  update(projectId: ProjectId, change: (ids: string[]) => string[], trx: DbHandle): Promise<void>;
  /**
   * Told once such a rewrite has committed: a project read between the rewrite and the commit saw
   * the old lists, and a cache must not keep them.
   */
  committed(projectId: ProjectId): void;
}

/** Whether a user is a member of a team (asked of the teams module, which stands above permissions). */
export type TeamMembershipCheck = (db: DbHandle, projectId: ProjectId, teamId: string, userId: string) => Promise<boolean>;

/** Permission definitions (a DAG per scope) and grants; effective permissions are the closure. */
export class PermissionService {
  private readonly closures = new PermissionClosureCache((projectId, scope) => loadClosure(this.db, projectId, scope));
  /** Provided by the teams module. */
  readonly membership = new Port<TeamMembershipCheck>('the team membership check of permissions');

  constructor(
    private readonly db: DbHandle,
    private readonly events: EventLog,
    private readonly users: UserService,
    private readonly defaults: DefaultPermissionLists,
  ) {}

  /** The default team roles of a new project (in the creating transaction). */
  async seedDefaults(projectId: ProjectId, db: DbHandle = this.db): Promise<void> {
    await insertDefinitions(db, projectId, 'team', defaultTeamRoles, { ignoreExisting: true });
    await rebuildClosure(db, projectId, 'team');
  }

  async listDefinitions(projectId: ProjectId, scope: Scope): Promise<DefinitionView[]> {
    const custom = (await listDefinitions(this.db, projectId, scope)).map(toView);
    const system = scope === 'team' ? systemTeamPermissions.map((id) => ({ id, contained_permission_ids: [] })) : [];
    return [...system, ...custom];
  }

  async createDefinition(
    projectId: ProjectId,
    scope: Scope,
    write: Required<Pick<DefinitionWrite, 'id'>> & DefinitionWrite,
  ): Promise<DefinitionView> {
    return inTransaction(this.db, async (trx) => {
      await lockDefinitions(trx, projectId);
      await this.assertIdFree(trx, projectId, write.id);
      const contained = await this.checkedContained(trx, projectId, scope, write.contained_permission_ids ?? []);
      await insertDefinitions(trx, projectId, scope, [{ id: write.id, description: write.description ?? null, contained_ids: contained }]);
      await rebuildClosure(trx, projectId, scope);
      return toView((await findDefinition(trx, projectId, write.id)) as PermissionDefinitionRow);
    });
  }

  async updateDefinition(projectId: ProjectId, scope: Scope, id: string, write: DefinitionWrite): Promise<DefinitionView> {
    const view = await inTransaction(this.db, async (trx) => {
      await lockDefinitions(trx, projectId);
      const current = await this.definitionIn(trx, projectId, scope, id);
      let currentId = current.id;
      if (write.id !== undefined && write.id !== currentId) {
        await this.assertIdFree(trx, projectId, write.id);
        await renameDefinition(trx, projectId, scope, currentId, write.id);
        const [from, to] = [currentId, write.id];
        await this.defaults.update(projectId, (ids) => ids.map((permission) => (permission === from ? to : permission)), trx);
        currentId = write.id;
      }
      if (write.contained_permission_ids !== undefined) {
        const contained = await this.checkedContained(trx, projectId, scope, write.contained_permission_ids);
        if (contained.includes(currentId) || (await reaches(trx, projectId, scope, contained, currentId))) {
          throw new PermissionContainmentCycleError(
            { permission_id: currentId },
            `Permission "${currentId}" would contain itself: containment must stay acyclic.`,
          );
        }
        await updateDefinition(trx, projectId, scope, currentId, { contained_ids: contained });
      }
      if (write.description !== undefined) {
        await updateDefinition(trx, projectId, scope, currentId, { description: write.description });
      }
      await rebuildClosure(trx, projectId, scope);
      return toView((await findDefinition(trx, projectId, currentId)) as PermissionDefinitionRow);
    });
    if (view.id !== id) this.defaults.committed(projectId);
    return view;
  }

  async deleteDefinition(projectId: ProjectId, scope: Scope, id: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      await lockDefinitions(trx, projectId);
      await this.definitionIn(trx, projectId, scope, id);
      await deleteDefinition(trx, projectId, scope, id);
      await this.defaults.update(projectId, (ids) => ids.filter((permission) => permission !== id), trx);
      await rebuildClosure(trx, projectId, scope);
    });
    this.defaults.committed(projectId);
  }

  /** Direct grants, or (recursive) the effective permissions: the direct grants expanded by the cached closure. */
  async listTeamGrants(projectId: ProjectId, filter: { teamId?: string; userId?: string; permissionId?: string; recursive: boolean }) {
    if (!filter.recursive) return listDirectTeamGrants(this.db, projectId, filter);
    const rows = await listTeamGrantRows(this.db, projectId, filter);
    return this.expand(
      projectId,
      'team',
      rows,
      (row) => `${row.team_id} ${row.user_id}`,
      filter.permissionId,
      (row, id) => ({
        team_id: row.team_id,
        user_id: row.user_id,
        id,
      }),
    );
  }

  /** As `listTeamGrants`, for project permissions. */
  async listProjectGrants(projectId: ProjectId, filter: { userId?: string; permissionId?: string; recursive: boolean }) {
    if (!filter.recursive) return listDirectProjectGrants(this.db, projectId, filter);
    const rows = await listProjectGrantRows(this.db, projectId, filter);
    return this.expand(
      projectId,
      'project',
      rows,
      (row) => row.user_id,
      filter.permissionId,
      (row, id) => ({ user_id: row.user_id, id }),
    );
  }

  /** Direct grant rows (read with the graph version) expanded with that version's closure: an item per member and effective id. */
  private async expand<Row extends { permission_id: string; version: string }, Item>(
    projectId: ProjectId,
    scope: Scope,
    rows: Row[],
    memberKey: (row: Row) => string,
    permissionId: string | undefined,
    toItem: (row: Row, id: string) => Item,
  ): Promise<Item[]> {
    const [first] = rows;
    if (!first) return [];
    const closure = await this.closures.at(projectId, scope, first.version);
    const grants = rows.map((row) => ({ member: row, permissionId: row.permission_id }));
    return effectiveGrants(grants, memberKey, closure, permissionId).flatMap(({ member, ids }) => ids.map((id) => toItem(member, id)));
  }

  async grantTeam(projectId: ProjectId, teamId: string, userId: string, permissionId: string, db: DbHandle = this.db): Promise<void> {
    await this.assertGrantable(db, projectId, 'team', permissionId);
    if (!(await this.membership.provider(db, projectId, teamId, userId))) {
      throw new TeamMembershipNotFoundError({ team_id: teamId, user_id: userId });
    }
    if (await insertTeamGrant(db, projectId, teamId, userId, permissionId))
      await this.events.record(db, projectId, 'team_permission.created', { id: permissionId, user_id: userId, team_id: teamId });
  }

  /** The project's default grants for a new member; an id no longer defined is skipped, not an error. */
  async grantTeamDefaults(projectId: ProjectId, teamId: string, userId: string, permissionIds: string[], db: DbHandle): Promise<void> {
    for (const permissionId of permissionIds) {
      const known =
        (systemTeamPermissions as readonly string[]).includes(permissionId) ||
        (await findDefinition(db, projectId, permissionId))?.scope === 'team';
      if (known) await insertTeamGrant(db, projectId, teamId, userId, permissionId);
    }
  }

  /** The sign-up default project permissions of a new user; an id no longer defined is skipped. */
  async grantProjectDefaults(projectId: ProjectId, userId: string, permissionIds: string[], db: DbHandle): Promise<void> {
    for (const permissionId of permissionIds) {
      if ((await findDefinition(db, projectId, permissionId))?.scope !== 'project') continue;
      await insertProjectGrant(db, projectId, userId, permissionId);
    }
  }

  async revokeTeam(projectId: ProjectId, teamId: string, userId: string, permissionId: string): Promise<void> {
    if (!(await this.revokeTeamIfHeld(projectId, teamId, userId, permissionId)))
      throw new TeamPermissionNotFoundError({ team_id: teamId, user_id: userId, permission_id: permissionId });
  }

  /** Revokes a direct team grant when there is one (false when there was none), in the caller's transaction. */
  async revokeTeamIfHeld(
    projectId: ProjectId,
    teamId: string,
    userId: string,
    permissionId: string,
    db: DbHandle = this.db,
  ): Promise<boolean> {
    if (!(await deleteTeamGrant(db, projectId, teamId, userId, permissionId))) return false;
    await this.events.record(db, projectId, 'team_permission.deleted', { id: permissionId, user_id: userId, team_id: teamId });
    return true;
  }

  /** The ids among `ids` that are not team permissions of the project now (the system team permissions count as defined). */
  async undefinedTeamPermissions(projectId: ProjectId, ids: string[], db: DbHandle = this.db): Promise<string[]> {
    if (ids.length === 0) return [];
    const known = new Set<string>(systemTeamPermissions);
    for (const row of await listDefinitions(db, projectId, 'team')) known.add(row.id);
    return [...new Set(ids)].filter((id) => !known.has(id));
  }

  async grantProject(projectId: ProjectId, userId: string, permissionId: string, db: DbHandle = this.db): Promise<void> {
    if (!(await this.users.findIn(db, projectId, userId))) throw new UserNotFoundError();
    await this.assertGrantable(db, projectId, 'project', permissionId);
    if (await insertProjectGrant(db, projectId, userId, permissionId))
      await this.events.record(db, projectId, 'project_permission.created', { id: permissionId, user_id: userId });
  }

  async revokeProject(projectId: ProjectId, userId: string, permissionId: string): Promise<void> {
    if (!(await deleteProjectGrant(this.db, projectId, userId, permissionId)))
      throw new PermissionNotFoundError({ permission_id: permissionId });
    await this.events.record(this.db, projectId, 'project_permission.deleted', { id: permissionId, user_id: userId });
  }

  /** Throws TEAM_PERMISSION_REQUIRED unless the member holds the permission, directly or through another. */
  async requireTeamPermission(projectId: ProjectId, teamId: string, userId: string, permissionId: string): Promise<void> {
    const held = await this.listTeamGrants(projectId, { teamId, userId, permissionId, recursive: true });
    if (held.length === 0) throw new TeamPermissionRequiredError({ team_id: teamId, user_id: userId, permission_id: permissionId });
  }

  private async definitionIn(db: DbHandle, projectId: ProjectId, scope: Scope, id: string): Promise<PermissionDefinitionRow> {
    const found = isSystemPermission(id) ? undefined : await findDefinition(db, projectId, id);
    if (!found || found.scope !== scope) throw new PermissionNotFoundError({ permission_id: id });
    return found;
  }

  private async assertIdFree(db: DbHandle, projectId: ProjectId, id: string): Promise<void> {
    if (await findDefinition(db, projectId, id)) throw new PermissionIdAlreadyExistsError({ permission_id: id });
  }

  /** Contained ids must exist in the same scope (team scope may contain the system permissions). */
  private async checkedContained(db: DbHandle, projectId: ProjectId, scope: Scope, ids: string[]): Promise<string[]> {
    const unique = [...new Set(ids)];
    const known = new Set((await listDefinitions(db, projectId, scope)).map((row) => row.id));
    for (const id of unique) {
      const exists = known.has(id) || (scope === 'team' && (systemTeamPermissions as readonly string[]).includes(id));
      if (!exists) throw new ContainedPermissionNotFoundError({ permission_id: id });
    }
    return unique;
  }

  private async assertGrantable(db: DbHandle, projectId: ProjectId, scope: Scope, permissionId: string): Promise<void> {
    if (isSystemPermission(permissionId)) {
      if ((systemTeamPermissions as readonly string[]).includes(permissionId) && scope === 'team') return;
      if ((systemTeamPermissions as readonly string[]).includes(permissionId)) {
        throw new WrongPermissionScopeError({ permission_id: permissionId, expected_scope: scope, actual_scope: 'team' });
      }
      throw new PermissionNotFoundError({ permission_id: permissionId });
    }
    const definition = await findDefinition(db, projectId, permissionId);
    if (!definition) throw new PermissionNotFoundError({ permission_id: permissionId });
    if (definition.scope !== scope)
      throw new WrongPermissionScopeError({ permission_id: permissionId, expected_scope: scope, actual_scope: definition.scope });
  }
}
