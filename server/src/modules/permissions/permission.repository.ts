import { type Kysely, sql } from 'kysely';
import type { Database, PermissionDefinitionRow } from '../../db/schema.ts';

export type Scope = 'team' | 'project';

export async function listDefinitions(db: Kysely<Database>, projectId: string, scope: Scope): Promise<PermissionDefinitionRow[]> {
  return db
    .selectFrom('permission_definition')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('scope', '=', scope)
    .orderBy('id')
    .execute();
}

export async function findDefinition(db: Kysely<Database>, projectId: string, id: string): Promise<PermissionDefinitionRow | undefined> {
  return db.selectFrom('permission_definition').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

/**
 * Whether `target` is reachable from `from` over contained permissions (so making `target` contain
 * `from` would close a cycle). A recursive CTE; UNION stops at nodes already seen.
 */
export async function reaches(db: Kysely<Database>, projectId: string, scope: Scope, from: string[], target: string): Promise<boolean> {
  if (from.length === 0) return false;
  const { rows } = await sql<{ found: boolean }>`
    with recursive reachable(id) as (
      select unnest(${from}::text[])
      union
      select unnest(d.contained_ids) from permission_definition d join reachable r on d.id = r.id
      where d.project_id = ${projectId} and d.scope = ${scope}
    )
    select exists(select 1 from reachable where id = ${target}) as found`.execute(db);
  return rows[0]?.found ?? false;
}

type GrantFilter = { teamId?: string; userId?: string; permissionId?: string };

/** Recomputes a project scope's closure from its definitions (inside the writing transaction). */
export async function rebuildClosure(db: Kysely<Database>, projectId: string, scope: Scope): Promise<void> {
  await db.deleteFrom('permission_closure').where('project_id', '=', projectId).where('scope', '=', scope).execute();
  await sql`
    insert into permission_closure (project_id, scope, id, implied_ids)
    with recursive closure(id, implied_id) as (
      select id, id from permission_definition where project_id = ${projectId} and scope = ${scope}
      union
      select c.id, unnest(d.contained_ids) from closure c
      join permission_definition d on d.project_id = ${projectId} and d.scope = ${scope} and d.id = c.implied_id
    )
    select ${projectId}, ${scope}, id, array_agg(implied_id) from closure group by id`.execute(db);
  await sql`
    insert into permission_graph_version as v (project_id, scope, version) values (${projectId}, ${scope}, 1)
    on conflict (project_id, scope) do update set version = v.version + 1`.execute(db);
}

/** The graph version a listing is read at: the same statement as the grants, so they agree. */
const graphVersion = (scope: Scope) => sql`coalesce((select v.version from permission_graph_version v
  where v.project_id = g.project_id and v.scope = ${scope}), 0)::text`;

export type ClosureSnapshot = { version: string; implied: Record<string, string[]> };

/** A scope's whole closure (each id with what it implies, itself included) and its version, in one statement. */
export async function loadClosure(db: Kysely<Database>, projectId: string, scope: Scope): Promise<ClosureSnapshot> {
  const { rows } = await sql<ClosureSnapshot>`
    select coalesce((select version from permission_graph_version where project_id = ${projectId} and scope = ${scope}), 0)::text as version,
      coalesce((select json_object_agg(id, implied_ids) from permission_closure where project_id = ${projectId} and scope = ${scope}), '{}') as implied`.execute(
    db,
  );
  return rows[0] as ClosureSnapshot;
}

export type TeamGrantRow = { team_id: string; user_id: string; permission_id: string; version: string };
export type ProjectGrantRow = { user_id: string; permission_id: string; version: string };

/** A team scope's direct grant rows with the graph version, for the effective listing. */
export async function listTeamGrantRows(db: Kysely<Database>, projectId: string, filter: { teamId?: string; userId?: string }) {
  const { rows } = await sql<TeamGrantRow>`
    select g.team_id, g.user_id, g.permission_id, ${graphVersion('team')} as version from team_permission_grant g
    where g.project_id = ${projectId}
      ${filter.teamId ? sql`and g.team_id = ${filter.teamId}` : sql``}
      ${filter.userId ? sql`and g.user_id = ${filter.userId}` : sql``}`.execute(db);
  return rows;
}

/** A project scope's direct grant rows with the graph version, for the effective listing. */
export async function listProjectGrantRows(db: Kysely<Database>, projectId: string, filter: { userId?: string }) {
  const { rows } = await sql<ProjectGrantRow>`
    select g.user_id, g.permission_id, ${graphVersion('project')} as version from project_permission_grant g
    where g.project_id = ${projectId}
      ${filter.userId ? sql`and g.user_id = ${filter.userId}` : sql``}`.execute(db);
  return rows;
}

/** Direct team grants, sorted and filtered (the effective ones: permission.service with the closure cache). */
export async function listDirectTeamGrants(db: Kysely<Database>, projectId: string, filter: GrantFilter) {
  const { rows } = await sql<{ team_id: string; user_id: string; id: string }>`
    select distinct team_id, user_id, id from (
      select g.team_id, g.user_id, g.permission_id as id
      from team_permission_grant g
      where g.project_id = ${projectId}
      ${filter.teamId ? sql`and g.team_id = ${filter.teamId}` : sql``}
      ${filter.userId ? sql`and g.user_id = ${filter.userId}` : sql``}
    ) effective
    ${filter.permissionId ? sql`where id = ${filter.permissionId}` : sql``}
    order by 1, 2, 3`.execute(db);
  return rows;
}

/** Direct project grants, sorted and filtered. */
export async function listDirectProjectGrants(db: Kysely<Database>, projectId: string, filter: Omit<GrantFilter, 'teamId'>) {
  const { rows } = await sql<{ user_id: string; id: string }>`
    select distinct user_id, id from (
      select g.user_id, g.permission_id as id
      from project_permission_grant g
      where g.project_id = ${projectId}
      ${filter.userId ? sql`and g.user_id = ${filter.userId}` : sql``}
    ) effective
    ${filter.permissionId ? sql`where id = ${filter.permissionId}` : sql``}
    order by 1, 2`.execute(db);
  return rows;
}

/** Renames a definition everywhere it is named: grants and other definitions' containments. */
export async function renameDefinition(db: Kysely<Database>, projectId: string, scope: Scope, from: string, to: string): Promise<void> {
  await db
    .updateTable('permission_definition')
    .set({ id: to })
    .where('project_id', '=', projectId)
    .where('scope', '=', scope)
    .where('id', '=', from)
    .execute();
  await sql`update permission_definition set contained_ids = array_replace(contained_ids, ${from}, ${to})
    where project_id = ${projectId} and scope = ${scope}`.execute(db);
  const grants = scope === 'team' ? 'team_permission_grant' : 'project_permission_grant';
  await db.updateTable(grants).set({ permission_id: to }).where('project_id', '=', projectId).where('permission_id', '=', from).execute();
}

export async function deleteDefinition(db: Kysely<Database>, projectId: string, scope: Scope, id: string): Promise<void> {
  await sql`update permission_definition set contained_ids = array_remove(contained_ids, ${id})
    where project_id = ${projectId} and scope = ${scope}`.execute(db);
  const grants = scope === 'team' ? 'team_permission_grant' : 'project_permission_grant';
  await db.deleteFrom(grants).where('project_id', '=', projectId).where('permission_id', '=', id).execute();
  await db
    .deleteFrom('permission_definition')
    .where('project_id', '=', projectId)
    .where('scope', '=', scope)
    .where('id', '=', id)
    .execute();
}
