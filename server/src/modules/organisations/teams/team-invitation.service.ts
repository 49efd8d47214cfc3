import {
  TeamInvitationEmailMismatchError,
  TeamInvitationNotFoundError,
  TeamInvitationRestrictedUserNotAllowedError,
  TeamMembershipAlreadyExistsError,
  VerificationCodeNotFoundError,
} from '@gatehouse/protocol/errors';
import type { EmailService } from '../../messaging/email/index.ts';
import type { Project } from '../../../tenancy/project.ts';
import { assertTrustedUrl } from '../../platform/projects/index.ts';
import type { UserRecord } from '../../../tenancy/user-record.ts';
import { restrictionOf } from '../../../tenancy/restriction.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { UserService } from '../../identity/users/index.ts';
import { linkWithCode, type VerificationCodeService } from '../../authentication/verification-codes/index.ts';
import type { TeamService } from './team.service.ts';

const invitationLifetimeMillis = 7 * 24 * 60 * 60 * 1000;

type InvitationData = { team_id: string; email: string };

/** Invitations are verification codes of purpose team_invitation: emailed, listed, revoked, accepted once. */
export class TeamInvitationService {
  constructor(
    private readonly teams: TeamService,
    private readonly users: UserService,
    private readonly codes: VerificationCodeService,
    private readonly email: EmailService,
  ) {}

  async send(project: Project, teamId: string, email: string, callbackUrl: string): Promise<string> {
    assertTrustedUrl(project, callbackUrl);
    const team = await this.teams.get(project.id, teamId);
    const { code, id } = await this.codes.issue(
      project.id,
      'team_invitation',
      { team_id: teamId, email } satisfies InvitationData,
      invitationLifetimeMillis,
    );
    await this.email.send(project, {
      to: email,
      kind: 'team_invitation',
      variables: { link: linkWithCode(callbackUrl, code), teamName: team.display_name },
      // An invitee who already has an account reads it in their language; anyone else in the project's default.
      language: (await this.users.findByAuthEmail(project.id, email))?.language,
    });
    return id;
  }

  async list(projectId: ProjectId, teamId: string) {
    const team = await this.teams.get(projectId, teamId);
    const rows = await this.codes.listLive(projectId, 'team_invitation', { team_id: teamId });
    return rows.map((row) => ({
      id: row.id,
      team_id: teamId,
      team_display_name: team.display_name,
      expires_at_millis: row.expires_at.getTime(),
      recipient_email: String((row.data as InvitationData).email),
    }));
  }

  /** Revoking uses the code up, so its link stops working. */
  async revoke(projectId: ProjectId, teamId: string, invitationId: string): Promise<void> {
    if (!(await this.codes.revoke(projectId, 'team_invitation', invitationId, { team_id: teamId })))
      throw new TeamInvitationNotFoundError({ team_id: teamId, invitation_id: invitationId });
  }

  async details(project: Project, code: string): Promise<{ team_id: string; team_display_name: string }> {
    const data = (await this.codes.redeem(project.id, 'team_invitation', code, { peek: true })) as InvitationData;
    const team = await this.teams.get(project.id, data.team_id);
    return { team_id: team.id, team_display_name: team.display_name };
  }

  check(project: Project, code: string): Promise<unknown> {
    return this.codes.redeem(project.id, 'team_invitation', code, { peek: true });
  }

  /** The invited email must be a verified channel of the user; joining twice just uses the code. */
  async accept(project: Project, user: UserRecord, code: string): Promise<void> {
    const data = (await this.codes.redeem(project.id, 'team_invitation', code, { peek: true })) as InvitationData;
    const restriction = restrictionOf(project, user);
    if (restriction) throw new TeamInvitationRestrictedUserNotAllowedError({ restricted_reason: restriction });
    if (!(await this.users.hasVerifiedEmail(project.id, user.id, data.email))) throw new TeamInvitationEmailMismatchError();
    await this.codes.redeem(project.id, 'team_invitation', code);
    try {
      await this.teams.addMember(project, data.team_id, user.id);
    } catch (error) {
      if (!(error instanceof TeamMembershipAlreadyExistsError)) throw error;
    }
  }

  /**
   * Accepts a pending invitation by its id for a user: only one addressed to one of the user's verified
   * emails counts (any other id is not found); the invitation is used up, so its emailed code stops working.
   */
  async acceptById(project: Project, user: UserRecord, invitationId: string): Promise<void> {
    const row = await this.codes.findLive(project.id, 'team_invitation', invitationId);
    const data = row?.data as InvitationData | undefined;
    if (!data || !(await this.users.hasVerifiedEmail(project.id, user.id, data.email))) throw new VerificationCodeNotFoundError();
    const restriction = restrictionOf(project, user);
    if (restriction) throw new TeamInvitationRestrictedUserNotAllowedError({ restricted_reason: restriction });
    if (!(await this.codes.revoke(project.id, 'team_invitation', invitationId, {}))) throw new VerificationCodeNotFoundError();
    try {
      await this.teams.addMember(project, data.team_id, user.id);
    } catch (error) {
      if (!(error instanceof TeamMembershipAlreadyExistsError)) throw error;
    }
  }
}
