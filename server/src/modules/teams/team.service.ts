import { randomUUID } from 'node:crypto';
import {
  TeamMembershipAlreadyExistsError,
  TeamMembershipNotFoundError,
  TeamNotFoundError,
  UserNotFoundError,
} from '@gatehouse/protocol/errors';
import { type Kysely, sql } from 'kysely';
import type { Database, TeamMemberRow, TeamRow } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { recordEvent } from '../events/event.repository.ts';
import type { PermissionService } from '../permissions/permission.service.ts';
import { toServerTeam } from './team-views.ts';
import type { Project } from '../projects/project.service.ts';
import { jsonColumn } from '../users/user-writes.ts';

export type TeamWrite = {
  display_name?: string;
  profile_image_url?: string | null;
  client_metadata?: unknown;
  client_read_only_metadata?: unknown;
  server_metadata?: unknown;
};

/** Teams and memberships; members get the project's default team permissions. */
export class TeamService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly permissions: PermissionService,
  ) {}

  /** A user's teams, or (no user) every team of the project; oldest first. */
  list(projectId: string, userId?: string): Promise<TeamRow[]> {
    let query = this.db.selectFrom('team').selectAll('team').where('team.project_id', '=', projectId);
    if (userId) query = query.innerJoin('team_member', 'team_member.team_id', 'team.id').where('team_member.user_id', '=', userId);
    return query.orderBy('team.created_at').orderBy('team.id').execute();
  }

  async get(projectId: string, teamId: string): Promise<TeamRow> {
    const team = await this.db
      .selectFrom('team')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('id', '=', teamId)
      .executeTakeFirst();
    if (!team) throw new TeamNotFoundError({ team_id: teamId });
    return team;
  }

  async isMember(teamId: string, userId: string): Promise<boolean> {
    return Boolean(
      await this.db
        .selectFrom('team_member')
        .select('user_id')
        .where('team_id', '=', teamId)
        .where('user_id', '=', userId)
        .executeTakeFirst(),
    );
  }

  async create(
    project: Project,
    write: TeamWrite & { display_name: string },
    creatorUserId?: string,
    db: Kysely<Database> = this.db,
  ): Promise<TeamRow> {
    const work = async (trx: Kysely<Database>) => {
      if (creatorUserId) {
        const creator = await trx
          .selectFrom('project_user')
          .select('id')
          .where('project_id', '=', project.id)
          .where('id', '=', creatorUserId)
          .executeTakeFirst();
        if (!creator) throw new UserNotFoundError();
      }
      const team = await trx
        .insertInto('team')
        .values({
          id: randomUUID(),
          project_id: project.id,
          display_name: write.display_name,
          profile_image_url: write.profile_image_url ?? null,
          client_metadata: jsonColumn(write.client_metadata) ?? null,
          client_read_only_metadata: jsonColumn(write.client_read_only_metadata) ?? null,
          server_metadata: jsonColumn(write.server_metadata) ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordEvent(trx, project.id, 'team.created', toServerTeam(team));
      if (creatorUserId)
        await this.addMemberIn(trx, project, team.id, creatorUserId, Object.keys(project.config.rbac.defaultPermissions.teamCreator));
      return team;
    };
    return db === this.db ? this.db.transaction().execute(work) : work(db);
  }

  async update(projectId: string, teamId: string, write: TeamWrite): Promise<TeamRow> {
    await this.get(projectId, teamId);
    const changes = Object.fromEntries(
      Object.entries({
        display_name: write.display_name,
        profile_image_url: write.profile_image_url,
        client_metadata: jsonColumn(write.client_metadata),
        client_read_only_metadata: jsonColumn(write.client_read_only_metadata),
        server_metadata: jsonColumn(write.server_metadata),
      }).filter(([, value]) => value !== undefined),
    );
    if (Object.keys(changes).length > 0) await this.db.updateTable('team').set(changes).where('id', '=', teamId).execute();
    const team = await this.get(projectId, teamId);
    await recordEvent(this.db, projectId, 'team.updated', toServerTeam(team));
    return team;
  }

  /** The team, its memberships (cascade) and its pending invitations go together. */
  async delete(projectId: string, teamId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const result = await trx.deleteFrom('team').where('project_id', '=', projectId).where('id', '=', teamId).executeTakeFirst();
      if (result.numDeletedRows === 0n) throw new TeamNotFoundError({ team_id: teamId });
      await recordEvent(trx, projectId, 'team.deleted', { id: teamId });
      await trx
        .deleteFrom('verification_code')
        .where('project_id', '=', projectId)
        .where('purpose', '=', 'team_invitation')
        .where(sql`data->>'team_id'`, '=', teamId)
        .execute();
    });
  }

  async addMember(project: Project, teamId: string, userId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const user = await trx
        .selectFrom('project_user')
        .select('id')
        .where('project_id', '=', project.id)
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!user) throw new UserNotFoundError();
      await this.get(project.id, teamId);
      await this.addMemberIn(trx, project, teamId, userId, Object.keys(project.config.rbac.defaultPermissions.teamMember));
    });
  }

  async removeMember(projectId: string, teamId: string, userId: string): Promise<void> {
    const result = await this.db
      .deleteFrom('team_member')
      .where('project_id', '=', projectId)
      .where('team_id', '=', teamId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (result.numDeletedRows === 0n) throw new TeamMembershipNotFoundError({ team_id: teamId, user_id: userId });
    await recordEvent(this.db, projectId, 'team_membership.deleted', { team_id: teamId, user_id: userId });
    await this.db
      .updateTable('project_user')
      .set({ selected_team_id: null })
      .where('id', '=', userId)
      .where('selected_team_id', '=', teamId)
      .execute();
  }

  listMembers(projectId: string, filter: { teamId?: string; userId?: string }): Promise<TeamMemberRow[]> {
    let query = this.db.selectFrom('team_member').selectAll().where('project_id', '=', projectId);
    if (filter.teamId) query = query.where('team_id', '=', filter.teamId);
    if (filter.userId) query = query.where('user_id', '=', filter.userId);
    return query.orderBy('created_at').execute();
  }

  async getMember(projectId: string, teamId: string, userId: string): Promise<TeamMemberRow> {
    const [member] = await this.listMembers(projectId, { teamId, userId });
    if (!member) throw new TeamMembershipNotFoundError({ team_id: teamId, user_id: userId });
    return member;
  }

  async updateMemberProfile(
    projectId: string,
    teamId: string,
    userId: string,
    write: { display_name?: string | null; profile_image_url?: string | null },
  ): Promise<TeamMemberRow> {
    await this.getMember(projectId, teamId, userId);
    const changes = Object.fromEntries(Object.entries(write).filter(([, value]) => value !== undefined));
    if (Object.keys(changes).length > 0)
      await this.db.updateTable('team_member').set(changes).where('team_id', '=', teamId).where('user_id', '=', userId).execute();
    return this.getMember(projectId, teamId, userId);
  }

  private async addMemberIn(
    trx: Kysely<Database>,
    project: Project,
    teamId: string,
    userId: string,
    permissionIds: string[],
  ): Promise<void> {
    try {
      await trx
        .insertInto('team_member')
        .values({ team_id: teamId, user_id: userId, project_id: project.id, display_name: null, profile_image_url: null })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new TeamMembershipAlreadyExistsError();
      throw error;
    }
    await recordEvent(trx, project.id, 'team_membership.created', { team_id: teamId, user_id: userId });
    await this.permissions.grantTeamDefaults(project.id, teamId, userId, permissionIds, trx);
  }
}
