import type { Schema } from '@gatehouse/protocol/operation-types';
import { TeamDomainNotFoundError } from '@gatehouse/protocol/errors';
import { currentRequestOrigin, runWithRequestOrigin } from '../../../request-context/request-origin.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { ScimDirectoryService } from '../scim/index.ts';
import { type SsoConnectionService, type TeamDomainService, toTeamDomainView } from '../../authentication/sso/index.ts';
import type { ProjectService } from '../../platform/projects/index.ts';
import type { TeamService } from '../../organisations/teams/index.ts';
import type { SetupSession } from './sso-setup-links.service.ts';

/**
 * What a team's IT admin can do in a setup session: read and configure that team's SSO connection, domains and
 * SCIM directory, through the same services as the owner's API. The team always comes from the session, never
 * from the request, and each change is recorded with the setup link as its actor.
 */
export class SsoSetupSessionService {
  constructor(
    private readonly projects: ProjectService,
    private readonly teams: TeamService,
    private readonly connections: SsoConnectionService,
    private readonly domains: TeamDomainService,
    private readonly directories: ScimDirectoryService,
  ) {}

  async overview(session: SetupSession): Promise<Schema<'SsoSetupOverview'>> {
    const project = await this.project(session);
    const team = await this.teams.get(session.projectId, session.teamId);
    const [connections, domains, directories] = await Promise.all([
      this.connections.list(session.projectId, session.teamId),
      this.domains.list(session.projectId, session.teamId),
      this.directories.list(session.projectId, session.teamId),
    ]);
    return {
      project_display_name: project.display_name,
      team_id: team.id,
      team_display_name: team.display_name,
      expires_at_millis: session.link.session_expires_at?.getTime() ?? 0,
      connections: connections.map((row) => this.connections.toView(row)),
      domains: domains.map(toTeamDomainView),
      scim_directories: directories.map((row) => this.directories.toView(row)),
    };
  }

  async createConnection(session: SetupSession, body: Schema<'SsoSetupConnectionCreate'>): Promise<Schema<'SsoConnection'>> {
    const project = await this.project(session);
    const row = await this.asSetupLink(session, () => this.connections.create(project, { ...body, team_id: session.teamId }));
    return this.connections.toView(row);
  }

  async createDomain(session: SetupSession, body: Schema<'SsoSetupDomainCreate'>): Promise<Schema<'TeamDomain'>> {
    const project = await this.project(session);
    return toTeamDomainView(
      await this.asSetupLink(session, () => this.domains.create(project, { team_id: session.teamId, domain: body.domain })),
    );
  }

  async verifyDomain(session: SetupSession, domainId: string): Promise<Schema<'TeamDomain'>> {
    const domain = await this.domains.get(session.projectId, domainId);
    // Another team's domain is not the session's to see.
    if (domain.team_id !== session.teamId) throw new TeamDomainNotFoundError({ domain_id: domainId });
    return toTeamDomainView(await this.asSetupLink(session, () => this.domains.verify(session.projectId, domainId)));
  }

  async createScimDirectory(session: SetupSession, displayName: string) {
    const { row, token } = await this.asSetupLink(session, () => this.directories.create(session.projectId, session.teamId, displayName));
    return { ...this.directories.toView(row), token };
  }

  private async project(session: SetupSession): Promise<Project> {
    const project = await this.projects.find(session.projectId);
    // The link's project cascades its links away when deleted; a session cannot outlive it.
    if (!project) throw new Error(`setup link ${session.link.id} has no project`);
    return project;
  }

  /** Runs a change with the setup link as the audit log's actor (the IT admin has no account). */
  private asSetupLink<T>(session: SetupSession, work: () => Promise<T>): Promise<T> {
    const origin = currentRequestOrigin();
    return runWithRequestOrigin(
      { ip: origin?.ip ?? null, userAgent: origin?.userAgent ?? null, actor: { type: 'sso_setup_link', id: session.link.id } },
      work,
    );
  }
}
