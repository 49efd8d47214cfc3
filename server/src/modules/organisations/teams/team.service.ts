import type { Schema } from '@gatehouse/protocol/operation-types';
import { randomUUID } from 'node:crypto';
import {
  TeamMembershipAlreadyExistsError,
  TeamMembershipNotFoundError,
  TeamNotFoundError,
  UserNotFoundError,
} from '@gatehouse/protocol/errors';
import { type DbHandle, inTransaction } from '../../../db/handle.ts';
import { isUniqueViolation } from '../../../db/unique-violation.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { EventLog } from '../../platform/events/index.ts';
import type { PermissionService } from '../permissions/index.ts';
import type { UserService } from '../../identity/users/index.ts';
import { jsonColumn } from '../../identity/users/index.ts';
import type { VerificationCodeService } from '../../authentication/verification-codes/index.ts';
import {
  deleteMember,
  deleteTeam,
  findTeam,
  findTeams,
  insertMember,
  insertTeam,
  isTeamMember,
  listMembers,
  listTeams,
  updateMember,
  updateTeam,
} from './team.repository.ts';
import type { TeamMemberRow, TeamRow } from './team.table.ts';
import { toServerTeam } from './team-views.ts';

/** The writable team fields (the spec's `ServerTeamUpdate`, which client access's `ClientTeamUpdate` is a part of; create adds a required `display_name`). */
export type TeamWrite = Schema<'ServerTeamUpdate'>;

/** Teams and memberships; members get the project's default team permissions. */
export class TeamService {
  constructor(
    private readonly db: DbHandle,
    private readonly events: EventLog,
    private readonly users: UserService,
    private readonly permissions: PermissionService,
    private readonly codes: VerificationCodeService,
  ) {}

  /** A user's teams, or (no user) every team of the project; oldest first. */
  list(projectId: ProjectId, userId?: string): Promise<TeamRow[]> {
    return listTeams(this.db, projectId, userId);
  }

  async get(projectId: ProjectId, teamId: string): Promise<TeamRow> {
    const team = await findTeam(this.db, projectId, teamId);
    if (!team) throw new TeamNotFoundError({ team_id: teamId });
    return team;
  }

  /** The project's teams with these ids (missing ones are left out). */
  getMany(projectId: ProjectId, teamIds: readonly string[]): Promise<TeamRow[]> {
    return findTeams(this.db, projectId, teamIds);
  }

  isMember(projectId: ProjectId, teamId: string, userId: string, db: DbHandle = this.db): Promise<boolean> {
    return isTeamMember(db, projectId, teamId, userId);
  }

  /** Creates the team (with its creator as a member, when given); in `db` when the caller holds a transaction. */
  async create(project: Project, write: TeamWrite & { display_name: string }, creatorUserId?: string, db?: DbHandle): Promise<TeamRow> {
    const work = async (trx: DbHandle) => {
      if (creatorUserId && !(await this.users.findIn(trx, project.id, creatorUserId))) throw new UserNotFoundError();
      const team = await insertTeam(trx, {
        id: randomUUID(),
        project_id: project.id,
        display_name: write.display_name,
        profile_image_url: write.profile_image_url ?? null,
        client_metadata: jsonColumn(write.client_metadata) ?? null,
        client_read_only_metadata: jsonColumn(write.client_read_only_metadata) ?? null,
        server_metadata: jsonColumn(write.server_metadata) ?? null,
      });
      await this.events.record(trx, project.id, 'team.created', toServerTeam(team));
      if (creatorUserId)
        await this.addMemberIn(trx, project, team.id, creatorUserId, Object.keys(project.config.rbac.defaultPermissions.teamCreator));
      return team;
    };
    return db ? work(db) : inTransaction(this.db, work);
  }

  async update(projectId: ProjectId, teamId: string, write: TeamWrite): Promise<TeamRow> {
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
    if (Object.keys(changes).length > 0) await updateTeam(this.db, projectId, teamId, changes);
    const team = await this.get(projectId, teamId);
    await this.events.record(this.db, projectId, 'team.updated', toServerTeam(team));
    return team;
  }

  /** The team, its memberships (cascade) and its pending invitations go together. */
  async delete(projectId: ProjectId, teamId: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      if (!(await deleteTeam(trx, projectId, teamId))) throw new TeamNotFoundError({ team_id: teamId });
      await this.events.record(trx, projectId, 'team.deleted', { id: teamId });
      await this.codes.deleteAll(trx, projectId, 'team_invitation', { team_id: teamId });
    });
  }

  async addMember(project: Project, teamId: string, userId: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      if (!(await this.users.findIn(trx, project.id, userId))) throw new UserNotFoundError();
      if (!(await findTeam(trx, project.id, teamId))) throw new TeamNotFoundError({ team_id: teamId });
      await this.addMemberIn(trx, project, teamId, userId, Object.keys(project.config.rbac.defaultPermissions.teamMember));
    });
  }

  /**
   * Makes a user a member (the project's default member permissions) inside the caller's transaction,
   * unless they already are one: SSO sign-ins and verified-domain enrolment join people to teams.
   */
  async joinIn(trx: DbHandle, project: Project, teamId: string, userId: string): Promise<boolean> {
    if (await this.isMember(project.id, teamId, userId, trx)) return false;
    await this.addMemberIn(trx, project, teamId, userId, Object.keys(project.config.rbac.defaultPermissions.teamMember));
    return true;
  }

  async removeMember(projectId: ProjectId, teamId: string, userId: string): Promise<void> {
    if (!(await deleteMember(this.db, projectId, teamId, userId)))
      throw new TeamMembershipNotFoundError({ team_id: teamId, user_id: userId });
    await this.events.record(this.db, projectId, 'team_membership.deleted', { team_id: teamId, user_id: userId });
    await this.users.unselectTeam(projectId, userId, teamId);
  }

  listMembers(projectId: ProjectId, filter: { teamId?: string; userId?: string }): Promise<TeamMemberRow[]> {
    return listMembers(this.db, projectId, filter);
  }

  async getMember(projectId: ProjectId, teamId: string, userId: string): Promise<TeamMemberRow> {
    const [member] = await this.listMembers(projectId, { teamId, userId });
    if (!member) throw new TeamMembershipNotFoundError({ team_id: teamId, user_id: userId });
    return member;
  }

  async updateMemberProfile(
    projectId: ProjectId,
    teamId: string,
    userId: string,
    write: { display_name?: string | null; profile_image_url?: string | null },
  ): Promise<TeamMemberRow> {
    await this.getMember(projectId, teamId, userId);
    const changes = Object.fromEntries(Object.entries(write).filter(([, value]) => value !== undefined));
    if (Object.keys(changes).length > 0) await updateMember(this.db, projectId, teamId, userId, changes);
    return this.getMember(projectId, teamId, userId);
  }

  private async addMemberIn(trx: DbHandle, project: Project, teamId: string, userId: string, permissionIds: string[]): Promise<void> {
    try {
      await insertMember(trx, { team_id: teamId, user_id: userId, project_id: project.id, display_name: null, profile_image_url: null });
    } catch (error) {
      if (isUniqueViolation(error)) throw new TeamMembershipAlreadyExistsError();
      throw error;
    }
    await this.events.record(trx, project.id, 'team_membership.created', { team_id: teamId, user_id: userId });
    await this.permissions.grantTeamDefaults(project.id, teamId, userId, permissionIds, trx);
  }
}
