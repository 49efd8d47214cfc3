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

type GrantFilter = { teamId?: string; userId?: string; permissionId?: string; recursive: boolean };

/**
 * Team grants, directly held or (recursive) through contained permissions: the transitive closure
 * in one recursive CTE.
 */
export async function listTeamGrants(db: Kysely<Database>, projectId: string, filter: GrantFilter) {
  const direct = sql`select g.team_id, g.user_id, g.permission_id as id from team_permission_grant g
    where g.project_id = ${projectId}
    ${filter.teamId ? sql`and g.team_id = ${filter.teamId}` : sql``}
    ${filter.userId ? sql`and g.user_id = ${filter.userId}` : sql``}`;
  const { rows } = await sql<{ team_id: string; user_id: string; id: string }>`
    with recursive closure(team_id, user_id, id) as (
      ${direct}
      ${
        filter.recursive
          ? sql`union select c.team_id, c.user_id, unnest(d.contained_ids) from closure c
        join permission_definition d on d.project_id = ${projectId} and d.scope = 'team' and d.id = c.id`
          : sql``
      }
    )
    select distinct team_id, user_id, id from closure
    ${filter.permissionId ? sql`where id = ${filter.permissionId}` : sql``}
    order by team_id, user_id, id`.execute(db);
  return rows;
}

export async function listProjectGrants(db: Kysely<Database>, projectId: string, filter: Omit<GrantFilter, 'teamId'>) {
  const direct = sql`select g.user_id, g.permission_id as id from project_permission_grant g
    where g.project_id = ${projectId} ${filter.userId ? sql`and g.user_id = ${filter.userId}` : sql``}`;
  const { rows } = await sql<{ user_id: string; id: string }>`
    with recursive closure(user_id, id) as (
      ${direct}
      ${
        filter.recursive
          ? sql`union select c.user_id, unnest(d.contained_ids) from closure c
        join permission_definition d on d.project_id = ${projectId} and d.scope = 'project' and d.id = c.id`
          : sql``
      }
    )
    select distinct user_id, id from closure
    ${filter.permissionId ? sql`where id = ${filter.permissionId}` : sql``}
    order by user_id, id`.execute(db);
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
