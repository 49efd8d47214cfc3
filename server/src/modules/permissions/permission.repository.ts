import { type Kysely, sql } from 'kysely';
import type { Database, PermissionDefinitionRow } from '../../db/schema.ts';
import { effectiveGrants } from './effective-grants.ts';

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
}

/**
 * Team grants, held directly or (recursive) through contained permissions. System permissions have
 * no definition, so they stand for themselves.
 */
export async function listTeamGrants(db: Kysely<Database>, projectId: string, filter: GrantFilter) {
  if (filter.recursive) return listEffectiveTeamGrants(db, projectId, filter);
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

/** Everything a grant implies, from the maintained closure by its full primary key (itself when it has none), as JSON. */
const implied = (scope: Scope) => sql`to_json(coalesce((select c.implied_ids from permission_closure c
  where c.project_id = g.project_id and c.scope = ${scope} and c.id = g.permission_id), array[g.permission_id]))`;

/**
 * The effective team permissions: one indexed query answering each grant with its closure (JSON, which
 * pg parses natively), merged per member by `effectiveGrants`.
 */
async function listEffectiveTeamGrants(db: Kysely<Database>, projectId: string, filter: GrantFilter) {
  const { rows } = await sql<{ team_id: string; user_id: string; ids: string[] }>`
    select g.team_id, g.user_id, ${implied('team')} as ids from team_permission_grant g
    where g.project_id = ${projectId}
      ${filter.teamId ? sql`and g.team_id = ${filter.teamId}` : sql``}
      ${filter.userId ? sql`and g.user_id = ${filter.userId}` : sql``}`.execute(db);
  const grants = rows.map(({ team_id, user_id, ids }) => ({ member: { team_id, user_id }, ids }));
  const items: Array<{ team_id: string; user_id: string; id: string }> = [];
  for (const { member, ids } of effectiveGrants(grants, (m) => `${m.team_id} ${m.user_id}`, filter.permissionId)) {
    for (const id of ids) items.push({ team_id: member.team_id, user_id: member.user_id, id });
  }
  return items;
}

/** Project grants, held directly or (recursive) through contained permissions, as the team listing. */
export async function listProjectGrants(db: Kysely<Database>, projectId: string, filter: Omit<GrantFilter, 'teamId'>) {
  if (filter.recursive) {
    const { rows } = await sql<{ user_id: string; ids: string[] }>`
      select g.user_id, ${implied('project')} as ids from project_permission_grant g
      where g.project_id = ${projectId}
        ${filter.userId ? sql`and g.user_id = ${filter.userId}` : sql``}`.execute(db);
    const grants = rows.map(({ user_id, ids }) => ({ member: user_id, ids }));
    const items: Array<{ user_id: string; id: string }> = [];
    for (const { member, ids } of effectiveGrants(grants, (userId) => userId, filter.permissionId)) {
      for (const id of ids) items.push({ user_id: member, id });
    }
    return items;
  }
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
