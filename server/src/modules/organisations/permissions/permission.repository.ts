import { sql } from 'kysely';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { PermissionDefinitionRow } from './permission.table.ts';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';

export type Scope = 'team' | 'project';

export async function listDefinitions(db: DbHandle, projectId: ProjectId, scope: Scope): Promise<PermissionDefinitionRow[]> {
  return kyselyOf(db)
    .selectFrom('permission_definition')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('scope', '=', scope)
    .orderBy('id')
    .execute();
}

export async function findDefinition(db: DbHandle, projectId: ProjectId, id: string): Promise<PermissionDefinitionRow | undefined> {
  return kyselyOf(db)
    .selectFrom('permission_definition')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Whether `target` is reachable from `from` over contained permissions (so making `target` contain
 * `from` would close a cycle). A recursive CTE; UNION stops at nodes already seen.
 */
export async function reaches(db: DbHandle, projectId: ProjectId, scope: Scope, from: string[], target: string): Promise<boolean> {
  if (from.length === 0) return false;
  const { rows } = await sql<{ found: boolean }>`
    with recursive reachable(id) as (
      select unnest(${from}::text[])
      union
      select unnest(d.contained_ids) from permission_definition d join reachable r on d.id = r.id
      where d.project_id = ${projectId} and d.scope = ${scope}
    )
    select exists(select 1 from reachable where id = ${target}) as found`.execute(kyselyOf(db));
  return rows[0]?.found ?? false;
}

/**
 * Makes the calling transaction the project's only writer of permission definitions until it ends
 * (a transaction-level advisory lock): the id check, the write and the closure rebuild of two
 * concurrent writers no longer interleave (they collided on permission_closure_pk, a 500).
 */
export async function lockDefinitions(db: DbHandle, projectId: ProjectId): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`permission_definitions:${projectId}`}))`.execute(kyselyOf(db));
}

type GrantFilter = { teamId?: string; userId?: string; permissionId?: string };

/** Recomputes a project scope's closure from its definitions (inside the writing transaction). */
export async function rebuildClosure(db: DbHandle, projectId: ProjectId, scope: Scope): Promise<void> {
  await kyselyOf(db).deleteFrom('permission_closure').where('project_id', '=', projectId).where('scope', '=', scope).execute();
  await sql`
    insert into permission_closure (project_id, scope, id, implied_ids)
    with recursive closure(id, implied_id) as (
      select id, id from permission_definition where project_id = ${projectId} and scope = ${scope}
      union
      select c.id, unnest(d.contained_ids) from closure c
      join permission_definition d on d.project_id = ${projectId} and d.scope = ${scope} and d.id = c.implied_id
    )
    select ${projectId}, ${scope}, id, array_agg(implied_id) from closure group by id`.execute(kyselyOf(db));
  await sql`
    insert into permission_graph_version as v (project_id, scope, version) values (${projectId}, ${scope}, 1)
    on conflict (project_id, scope) do update set version = v.version + 1`.execute(kyselyOf(db));
}

/** The graph version a listing is read at: the same statement as the grants, so they agree. */
const graphVersion = (scope: Scope) => sql`coalesce((select v.version from permission_graph_version v
  where v.project_id = g.project_id and v.scope = ${scope}), 0)::text`;

export type ClosureSnapshot = { version: string; implied: Record<string, string[]> };

/** A scope's whole closure (each id with what it implies, itself included) and its version, in one statement. */
export async function loadClosure(db: DbHandle, projectId: ProjectId, scope: Scope): Promise<ClosureSnapshot> {
  const { rows } = await sql<ClosureSnapshot>`
    select coalesce((select version from permission_graph_version where project_id = ${projectId} and scope = ${scope}), 0)::text as version,
      coalesce((select json_object_agg(id, implied_ids) from permission_closure where project_id = ${projectId} and scope = ${scope}), '{}') as implied`.execute(
    kyselyOf(db),
  );
  return rows[0] as ClosureSnapshot;
}

export type TeamGrantRow = { team_id: string; user_id: string; permission_id: string; version: string };
export type ProjectGrantRow = { user_id: string; permission_id: string; version: string };

/** A team scope's direct grant rows with the graph version, for the effective listing. */
export async function listTeamGrantRows(db: DbHandle, projectId: ProjectId, filter: { teamId?: string; userId?: string }) {
  const { rows } = await sql<TeamGrantRow>`
    select g.team_id, g.user_id, g.permission_id, ${graphVersion('team')} as version from team_permission_grant g
    where g.project_id = ${projectId}
      ${filter.teamId ? sql`and g.team_id = ${filter.teamId}` : sql``}
      ${filter.userId ? sql`and g.user_id = ${filter.userId}` : sql``}`.execute(kyselyOf(db));
  return rows;
}

/** A project scope's direct grant rows with the graph version, for the effective listing. */
export async function listProjectGrantRows(db: DbHandle, projectId: ProjectId, filter: { userId?: string }) {
  const { rows } = await sql<ProjectGrantRow>`
    select g.user_id, g.permission_id, ${graphVersion('project')} as version from project_permission_grant g
    where g.project_id = ${projectId}
      ${filter.userId ? sql`and g.user_id = ${filter.userId}` : sql``}`.execute(kyselyOf(db));
  return rows;
}

/** Direct team grants, sorted and filtered (the effective ones: permission.service with the closure cache). */
export async function listDirectTeamGrants(db: DbHandle, projectId: ProjectId, filter: GrantFilter) {
  const { rows } = await sql<{ team_id: string; user_id: string; id: string }>`
    select distinct team_id, user_id, id from (
      select g.team_id, g.user_id, g.permission_id as id
      from team_permission_grant g
      where g.project_id = ${projectId}
      ${filter.teamId ? sql`and g.team_id = ${filter.teamId}` : sql``}
      ${filter.userId ? sql`and g.user_id = ${filter.userId}` : sql``}
    ) effective
    ${filter.permissionId ? sql`where id = ${filter.permissionId}` : sql``}
    order by 1, 2, 3`.execute(kyselyOf(db));
  return rows;
}

/** Direct project grants, sorted and filtered. */
export async function listDirectProjectGrants(db: DbHandle, projectId: ProjectId, filter: Omit<GrantFilter, 'teamId'>) {
  const { rows } = await sql<{ user_id: string; id: string }>`
    select distinct user_id, id from (
      select g.user_id, g.permission_id as id
      from project_permission_grant g
      where g.project_id = ${projectId}
      ${filter.userId ? sql`and g.user_id = ${filter.userId}` : sql``}
    ) effective
    ${filter.permissionId ? sql`where id = ${filter.permissionId}` : sql``}
    order by 1, 2`.execute(kyselyOf(db));
  return rows;
}

/** Renames a definition everywhere it is named: grants and other definitions' containments. */
export async function renameDefinition(db: DbHandle, projectId: ProjectId, scope: Scope, from: string, to: string): Promise<void> {
  await kyselyOf(db)
    .updateTable('permission_definition')
    .set({ id: to })
    .where('project_id', '=', projectId)
    .where('scope', '=', scope)
    .where('id', '=', from)
    .execute();
  await sql`update permission_definition set contained_ids = array_replace(contained_ids, ${from}, ${to})
    where project_id = ${projectId} and scope = ${scope}`.execute(kyselyOf(db));
  const grants = scope === 'team' ? 'team_permission_grant' : 'project_permission_grant';
  await kyselyOf(db)
    .updateTable(grants)
    .set({ permission_id: to })
    .where('project_id', '=', projectId)
    .where('permission_id', '=', from)
    .execute();
}

export async function deleteDefinition(db: DbHandle, projectId: ProjectId, scope: Scope, id: string): Promise<void> {
  await sql`update permission_definition set contained_ids = array_remove(contained_ids, ${id})
    where project_id = ${projectId} and scope = ${scope}`.execute(kyselyOf(db));
  const grants = scope === 'team' ? 'team_permission_grant' : 'project_permission_grant';
  await kyselyOf(db).deleteFrom(grants).where('project_id', '=', projectId).where('permission_id', '=', id).execute();
  await kyselyOf(db)
    .deleteFrom('permission_definition')
    .where('project_id', '=', projectId)
    .where('scope', '=', scope)
    .where('id', '=', id)
    .execute();
}

export async function insertDefinitions(
  db: DbHandle,
  projectId: ProjectId,
  scope: Scope,
  definitions: ReadonlyArray<{ id: string; description: string | null; contained_ids: string[] }>,
  options: { ignoreExisting?: boolean } = {},
): Promise<void> {
  let insert = kyselyOf(db)
    .insertInto('permission_definition')
    .values(definitions.map((definition) => ({ project_id: projectId, scope, ...definition })));
  if (options.ignoreExisting) insert = insert.onConflict((conflict) => conflict.doNothing());
  await insert.execute();
}

export async function updateDefinition(
  db: DbHandle,
  projectId: ProjectId,
  scope: Scope,
  id: string,
  set: { contained_ids?: string[]; description?: string },
): Promise<void> {
  await kyselyOf(db)
    .updateTable('permission_definition')
    .set(set)
    .where('project_id', '=', projectId)
    .where('scope', '=', scope)
    .where('id', '=', id)
    .execute();
}

/** Grants a team permission to a member; false when it was granted already. */
export async function insertTeamGrant(
  db: DbHandle,
  projectId: ProjectId,
  teamId: string,
  userId: string,
  permissionId: string,
): Promise<boolean> {
  const granted = await kyselyOf(db)
    .insertInto('team_permission_grant')
    .values({ project_id: projectId, team_id: teamId, user_id: userId, permission_id: permissionId })
    .onConflict((conflict) => conflict.doNothing())
    .executeTakeFirst();
  return Boolean(granted.numInsertedOrUpdatedRows);
}

/** Grants a project permission to a user; false when it was granted already. */
export async function insertProjectGrant(db: DbHandle, projectId: ProjectId, userId: string, permissionId: string): Promise<boolean> {
  const granted = await kyselyOf(db)
    .insertInto('project_permission_grant')
    .values({ project_id: projectId, user_id: userId, permission_id: permissionId })
    .onConflict((conflict) => conflict.doNothing())
    .executeTakeFirst();
  return Boolean(granted.numInsertedOrUpdatedRows);
}

export async function deleteTeamGrant(
  db: DbHandle,
  projectId: ProjectId,
  teamId: string,
  userId: string,
  permissionId: string,
): Promise<boolean> {
  const result = await kyselyOf(db)
    .deleteFrom('team_permission_grant')
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .where('permission_id', '=', permissionId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function deleteProjectGrant(db: DbHandle, projectId: ProjectId, userId: string, permissionId: string): Promise<boolean> {
  const result = await kyselyOf(db)
    .deleteFrom('project_permission_grant')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('permission_id', '=', permissionId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
