import type { Insertable, Updateable } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { TeamMemberRow, TeamMemberTable, TeamRow, TeamTable } from './team.table.ts';

/** A user's teams, or (no user) every team of the project; oldest first. */
export async function listTeams(db: DbHandle, projectId: ProjectId, userId?: string): Promise<TeamRow[]> {
  let query = kyselyOf(db).selectFrom('team').selectAll('team').where('team.project_id', '=', projectId);
  if (userId) query = query.innerJoin('team_member', 'team_member.team_id', 'team.id').where('team_member.user_id', '=', userId);
  return query.orderBy('team.created_at').orderBy('team.id').execute();
}

export async function findTeam(db: DbHandle, projectId: ProjectId, teamId: string): Promise<TeamRow | undefined> {
  return kyselyOf(db).selectFrom('team').selectAll().where('project_id', '=', projectId).where('id', '=', teamId).executeTakeFirst();
}

export async function findTeams(db: DbHandle, projectId: ProjectId, teamIds: readonly string[]): Promise<TeamRow[]> {
  if (teamIds.length === 0) return [];
  return kyselyOf(db).selectFrom('team').selectAll().where('project_id', '=', projectId).where('id', 'in', teamIds).execute();
}

export async function insertTeam(db: DbHandle, row: Insertable<TeamTable>): Promise<TeamRow> {
  return kyselyOf(db).insertInto('team').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateTeam(db: DbHandle, projectId: ProjectId, teamId: string, changes: Updateable<TeamTable>): Promise<void> {
  await kyselyOf(db).updateTable('team').set(changes).where('project_id', '=', projectId).where('id', '=', teamId).execute();
}

/** Deletes the team and (by cascade) its memberships; false when there was none. */
export async function deleteTeam(db: DbHandle, projectId: ProjectId, teamId: string): Promise<boolean> {
  const result = await kyselyOf(db).deleteFrom('team').where('project_id', '=', projectId).where('id', '=', teamId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function isTeamMember(db: DbHandle, projectId: ProjectId, teamId: string, userId: string): Promise<boolean> {
  const member = await kyselyOf(db)
    .selectFrom('team_member')
    .select('user_id')
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return member !== undefined;
}

export async function insertMember(db: DbHandle, row: Insertable<TeamMemberTable>): Promise<void> {
  await kyselyOf(db).insertInto('team_member').values(row).execute();
}

/** False when the user was no member. */
export async function deleteMember(db: DbHandle, projectId: ProjectId, teamId: string, userId: string): Promise<boolean> {
  const result = await kyselyOf(db)
    .deleteFrom('team_member')
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function listMembers(
  db: DbHandle,
  projectId: ProjectId,
  filter: { teamId?: string; userId?: string },
): Promise<TeamMemberRow[]> {
  let query = kyselyOf(db).selectFrom('team_member').selectAll().where('project_id', '=', projectId);
  if (filter.teamId) query = query.where('team_id', '=', filter.teamId);
  if (filter.userId) query = query.where('user_id', '=', filter.userId);
  return query.orderBy('created_at').execute();
}

export async function updateMember(
  db: DbHandle,
  projectId: ProjectId,
  teamId: string,
  userId: string,
  changes: Updateable<TeamMemberTable>,
): Promise<void> {
  await kyselyOf(db)
    .updateTable('team_member')
    .set(changes)
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .execute();
}
