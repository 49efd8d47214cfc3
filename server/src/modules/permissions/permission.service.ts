import {
  ContainedPermissionNotFoundError,
  PermissionIdAlreadyExistsError,
  PermissionNotFoundError,
  TeamMembershipNotFoundError,
  TeamPermissionNotFoundError,
  TeamPermissionRequiredError,
  UserNotFoundError,
  WrongPermissionScopeError,
} from '@gatehouse/protocol/errors';
import type { Kysely } from 'kysely';
import type { Database, PermissionDefinitionRow } from '../../db/schema.ts';
import { PlainHttpError } from '../../lib/plain-http-error.ts';
import { recordEvent } from '../events/event.repository.ts';
import {
  deleteDefinition,
  findDefinition,
  listDefinitions,
  listDirectProjectGrants,
  listDirectTeamGrants,
  listProjectGrantRows,
  listTeamGrantRows,
  loadClosure,
  reaches,
  rebuildClosure,
  renameDefinition,
  type Scope,
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

/** Permission definitions (a DAG per scope) and grants; effective permissions are the closure. */
/** Keeps the project's default-permission lists naming only permissions that exist. */
export type DefaultPermissionsUpdater = (projectId: string, change: (ids: string[]) => string[], trx: Kysely<Database>) => Promise<void>;

export class PermissionService {
  private readonly closures = new PermissionClosureCache((projectId, scope) => loadClosure(this.db, projectId, scope));

  constructor(
    private readonly db: Kysely<Database>,
    private readonly updateDefaults: DefaultPermissionsUpdater = async () => {},
    /**
     * Told once such a rewrite has committed: a project read between the rewrite and the commit saw
     * the old lists, and a cache must not keep them.
     */
    private readonly defaultsCommitted: (projectId: string) => void = () => {},
  ) {}

  async seedDefaults(projectId: string, db: Kysely<Database> = this.db): Promise<void> {
    await db
      .insertInto('permission_definition')
      .values(defaultTeamRoles.map((role) => ({ project_id: projectId, scope: 'team' as const, ...role })))
      .onConflict((conflict) => conflict.doNothing())
      .execute();
    await rebuildClosure(db, projectId, 'team');
  }

  async listDefinitions(projectId: string, scope: Scope): Promise<DefinitionView[]> {
    const custom = (await listDefinitions(this.db, projectId, scope)).map(toView);
    const system = scope === 'team' ? systemTeamPermissions.map((id) => ({ id, contained_permission_ids: [] })) : [];
    return [...system, ...custom];
  }

  async createDefinition(
    projectId: string,
    scope: Scope,
    write: Required<Pick<DefinitionWrite, 'id'>> & DefinitionWrite,
  ): Promise<DefinitionView> {
    return this.db.transaction().execute(async (trx) => {
      await this.assertIdFree(trx, projectId, write.id);
      const contained = await this.checkedContained(trx, projectId, scope, write.contained_permission_ids ?? []);
      await trx
        .insertInto('permission_definition')
        .values({ project_id: projectId, scope, id: write.id, description: write.description ?? null, contained_ids: contained })
        .execute();
      await rebuildClosure(trx, projectId, scope);
      return toView((await findDefinition(trx, projectId, write.id)) as PermissionDefinitionRow);
    });
  }

  async updateDefinition(projectId: string, scope: Scope, id: string, write: DefinitionWrite): Promise<DefinitionView> {
    const view = await this.db.transaction().execute(async (trx) => {
      const current = await this.definitionIn(trx, projectId, scope, id);
      let currentId = current.id;
      if (write.id !== undefined && write.id !== currentId) {
        await this.assertIdFree(trx, projectId, write.id);
        await renameDefinition(trx, projectId, scope, currentId, write.id);
        const [from, to] = [currentId, write.id];
        await this.updateDefaults(projectId, (ids) => ids.map((permission) => (permission === from ? to : permission)), trx);
        currentId = write.id;
      }
      if (write.contained_permission_ids !== undefined) {
        const contained = await this.checkedContained(trx, projectId, scope, write.contained_permission_ids);
        if (contained.includes(currentId) || (await reaches(trx, projectId, scope, contained, currentId))) {
          throw new PlainHttpError(400, `Permission "${currentId}" would contain itself: containment must stay acyclic.`);
        }
        await trx
          .updateTable('permission_definition')
          .set({ contained_ids: contained })
          .where('project_id', '=', projectId)
          .where('scope', '=', scope)
          .where('id', '=', currentId)
          .execute();
      }
      if (write.description !== undefined) {
        await trx
          .updateTable('permission_definition')
          .set({ description: write.description })
          .where('project_id', '=', projectId)
          .where('scope', '=', scope)
          .where('id', '=', currentId)
          .execute();
      }
      await rebuildClosure(trx, projectId, scope);
      return toView((await findDefinition(trx, projectId, currentId)) as PermissionDefinitionRow);
    });
    if (view.id !== id) this.defaultsCommitted(projectId);
    return view;
  }

  async deleteDefinition(projectId: string, scope: Scope, id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.definitionIn(trx, projectId, scope, id);
      await deleteDefinition(trx, projectId, scope, id);
      await this.updateDefaults(projectId, (ids) => ids.filter((permission) => permission !== id), trx);
      await rebuildClosure(trx, projectId, scope);
    });
    this.defaultsCommitted(projectId);
  }

  /** Direct grants, or (recursive) the effective permissions: the direct grants expanded by the cached closure. */
  async listTeamGrants(projectId: string, filter: { teamId?: string; userId?: string; permissionId?: string; recursive: boolean }) {
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
  async listProjectGrants(projectId: string, filter: { userId?: string; permissionId?: string; recursive: boolean }) {
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
    projectId: string,
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

  async grantTeam(projectId: string, teamId: string, userId: string, permissionId: string, db: Kysely<Database> = this.db): Promise<void> {
    await this.assertGrantable(db, projectId, 'team', permissionId);
    const member = await db
      .selectFrom('team_member')
      .select('user_id')
      .where('team_id', '=', teamId)
      .where('user_id', '=', userId)
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    if (!member) throw new TeamMembershipNotFoundError({ team_id: teamId, user_id: userId });
    const granted = await db
      .insertInto('team_permission_grant')
      .values({ project_id: projectId, team_id: teamId, user_id: userId, permission_id: permissionId })
      .onConflict((conflict) => conflict.doNothing())
      .executeTakeFirst();
    if (granted.numInsertedOrUpdatedRows)
      await recordEvent(db, projectId, 'team_permission.created', { id: permissionId, user_id: userId, team_id: teamId });
  }

  /** The project's default grants for a new member; an id no longer defined is skipped, not an error. */
  async grantTeamDefaults(projectId: string, teamId: string, userId: string, permissionIds: string[], db: Kysely<Database>): Promise<void> {
    for (const permissionId of permissionIds) {
      const known =
        (systemTeamPermissions as readonly string[]).includes(permissionId) ||
        (await findDefinition(db, projectId, permissionId))?.scope === 'team';
      if (known)
        await db
          .insertInto('team_permission_grant')
          .values({ project_id: projectId, team_id: teamId, user_id: userId, permission_id: permissionId })
          .onConflict((conflict) => conflict.doNothing())
          .execute();
    }
  }

  /** The sign-up default project permissions of a new user; an id no longer defined is skipped. */
  async grantProjectDefaults(projectId: string, userId: string, permissionIds: string[], db: Kysely<Database>): Promise<void> {
    for (const permissionId of permissionIds) {
      if ((await findDefinition(db, projectId, permissionId))?.scope !== 'project') continue;
      await db
        .insertInto('project_permission_grant')
        .values({ project_id: projectId, user_id: userId, permission_id: permissionId })
        .onConflict((conflict) => conflict.doNothing())
        .execute();
    }
  }

  async revokeTeam(projectId: string, teamId: string, userId: string, permissionId: string): Promise<void> {
    const result = await this.db
      .deleteFrom('team_permission_grant')
      .where('project_id', '=', projectId)
      .where('team_id', '=', teamId)
      .where('user_id', '=', userId)
      .where('permission_id', '=', permissionId)
      .executeTakeFirst();
    if (result.numDeletedRows === 0n)
      throw new TeamPermissionNotFoundError({ team_id: teamId, user_id: userId, permission_id: permissionId });
    await recordEvent(this.db, projectId, 'team_permission.deleted', { id: permissionId, user_id: userId, team_id: teamId });
  }

  async grantProject(projectId: string, userId: string, permissionId: string, db: Kysely<Database> = this.db): Promise<void> {
    const user = await db
      .selectFrom('project_user')
      .select('id')
      .where('project_id', '=', projectId)
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!user) throw new UserNotFoundError();
    await this.assertGrantable(db, projectId, 'project', permissionId);
    const granted = await db
      .insertInto('project_permission_grant')
      .values({ project_id: projectId, user_id: userId, permission_id: permissionId })
      .onConflict((conflict) => conflict.doNothing())
      .executeTakeFirst();
    if (granted.numInsertedOrUpdatedRows)
      await recordEvent(db, projectId, 'project_permission.created', { id: permissionId, user_id: userId });
  }

  async revokeProject(projectId: string, userId: string, permissionId: string): Promise<void> {
    const result = await this.db
      .deleteFrom('project_permission_grant')
      .where('project_id', '=', projectId)
      .where('user_id', '=', userId)
      .where('permission_id', '=', permissionId)
      .executeTakeFirst();
    if (result.numDeletedRows === 0n) throw new PermissionNotFoundError({ permission_id: permissionId });
    await recordEvent(this.db, projectId, 'project_permission.deleted', { id: permissionId, user_id: userId });
  }

  /** Throws TEAM_PERMISSION_REQUIRED unless the member holds the permission, directly or through another. */
  async requireTeamPermission(projectId: string, teamId: string, userId: string, permissionId: string): Promise<void> {
    const held = await this.listTeamGrants(projectId, { teamId, userId, permissionId, recursive: true });
    if (held.length === 0) throw new TeamPermissionRequiredError({ team_id: teamId, user_id: userId, permission_id: permissionId });
  }

  private async definitionIn(db: Kysely<Database>, projectId: string, scope: Scope, id: string): Promise<PermissionDefinitionRow> {
    const found = isSystemPermission(id) ? undefined : await findDefinition(db, projectId, id);
    if (!found || found.scope !== scope) throw new PermissionNotFoundError({ permission_id: id });
    return found;
  }

  private async assertIdFree(db: Kysely<Database>, projectId: string, id: string): Promise<void> {
    if (await findDefinition(db, projectId, id)) throw new PermissionIdAlreadyExistsError({ permission_id: id });
  }

  /** Contained ids must exist in the same scope (team scope may contain the system permissions). */
  private async checkedContained(db: Kysely<Database>, projectId: string, scope: Scope, ids: string[]): Promise<string[]> {
    const unique = [...new Set(ids)];
    const known = new Set((await listDefinitions(db, projectId, scope)).map((row) => row.id));
    for (const id of unique) {
      const exists = known.has(id) || (scope === 'team' && (systemTeamPermissions as readonly string[]).includes(id));
      if (!exists) throw new ContainedPermissionNotFoundError({ permission_id: id });
    }
    return unique;
  }

  private async assertGrantable(db: Kysely<Database>, projectId: string, scope: Scope, permissionId: string): Promise<void> {
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
