import { createHash } from 'node:crypto';
import { ExpectedInternalProjectError, ProjectChangeRefusedError, ProjectNotFoundError } from '@gatehouse/protocol/errors';
import type { components } from '@gatehouse/protocol/api-types';
import type { Project } from '../../../tenancy/project.ts';
import { internalProjectId, type ProjectId } from '../../../tenancy/project-id.ts';
import type { ProjectLogos, ProjectService } from '../../platform/projects/index.ts';
import type { TeamService } from '../../organisations/teams/index.ts';
import { mergeOverride, renderConfig, withoutConfigPath } from '../../../tenancy/project-config.ts';
import type { DbHandle } from '../../../db/handle.ts';
import { deleteConfigSource, findConfigSource, saveConfigSource } from './config-source.repository.ts';
import { toAdminProjectConfig, toProjectWriteOverride } from './legacy-project-config.ts';
import { assertValidConfig, parseOverride } from './config-validation.ts';
import { assertOidcProvidersReachable } from '../../authentication/oauth/index.ts';
import { assertProductionReady } from './production-mode.ts';

type AdminProject = components['schemas']['AdminProject'];
type ProjectCreate = components['schemas']['ProjectCreate'];
type ProjectUpdate = components['schemas']['ProjectUpdate'];
type ConfigSource = components['schemas']['ConfigSource'];

const logoFields = ['logo_url', 'logo_full_url', 'logo_dark_mode_url', 'logo_full_dark_mode_url'] as const;

/** The dashboard details a create or update gives (logos, setup status and choices), in the project service's terms. */
const detailsOf = (input: ProjectCreate | ProjectUpdate) => ({
  logos: Object.fromEntries(logoFields.filter((field) => input[field] !== undefined).map((field) => [field, input[field]])) as ProjectLogos,
  onboardingStatus: input.onboarding_status,
  onboardingState: input.onboarding_state,
});

/** The stable id of a project's config (the protocol's `config.id`): a UUID-shaped digest of the project id. */
export function configIdOf(projectId: string): string {
  const hex = createHash('sha256').update(`gatehouse-project-config:${projectId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((Number.parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}

export const toAdminProject = (project: Project): AdminProject => ({
  id: project.id,
  display_name: project.display_name,
  description: project.description,
  logo_url: project.logo_url,
  logo_full_url: project.logo_full_url,
  logo_dark_mode_url: project.logo_dark_mode_url,
  logo_full_dark_mode_url: project.logo_full_dark_mode_url,
  created_at_millis: project.created_at.getTime(),
  is_production_mode: project.is_production_mode,
  is_development_environment: project.is_development_environment,
  owner_team_id: project.owner_team_id,
  // Both columns only ever hold what the request schema accepted.
  onboarding_status: project.onboarding_status as AdminProject['onboarding_status'],
  onboarding_state: (project.onboarding_state ?? null) as AdminProject['onboarding_state'],
  branch_id: 'main',
  config: { id: configIdOf(project.id), ...toAdminProjectConfig(project.config) },
});

/** Dashboard users (of the `internal` project) manage the projects their teams own. */
export class InternalProjectService {
  constructor(
    private readonly projects: ProjectService,
    private readonly teams: TeamService,
    private readonly db: DbHandle,
  ) {}

  assertInternal(project: Project): void {
    if (project.id !== 'internal') throw new ExpectedInternalProjectError();
  }

  /** Whether an internal user belongs to the team that owns the project. */
  async manages(internalUserId: string, project: Project): Promise<boolean> {
    if (!project.owner_team_id) return false;
    return this.teams.isMember(internalProjectId, project.owner_team_id, internalUserId);
  }

  /** The projects owned by the user's teams of the internal project, oldest first. */
  async list(internalUserId: string): Promise<Project[]> {
    const teams = await this.teams.list(internalProjectId, internalUserId);
    return this.projects.listOwnedBy(teams.map((team) => team.id));
  }

  async create(internalUserId: string, input: ProjectCreate): Promise<Project> {
    await this.assertTeamOfUser(internalUserId, input.owner_team_id);
    const configOverride = toProjectWriteOverride(input, renderConfig({}));
    const productionMode = input.is_production_mode ?? false;
    // As on update: a config is validated as a whole; production mode alone checks the (default) domains.
    if (configOverride) assertValidConfig('new', renderConfig(configOverride), productionMode);
    else if (productionMode) assertProductionReady('new', renderConfig({}));
    return this.projects.create({
      displayName: input.display_name,
      description: input.description,
      ownerTeamId: input.owner_team_id,
      isDevelopmentEnvironment: input.is_development_environment ?? false,
      isProductionMode: productionMode,
      configOverride: configOverride ?? {},
      ...detailsOf(input),
    });
  }

  /**
   * Development mode's demo project (bootstrap/demo-project-owner.ts): inside the sign-up's transaction, a
   * new dashboard user gets an ownerless project with a team of their own, named after them. False when a
   * team owns it already (the first owner got it).
   */
  async giveOwnerlessProject(
    trx: DbHandle,
    projectId: ProjectId,
    internalProject: Project,
    user: { id: string; display_name: string | null; primary_email: string | null },
  ): Promise<boolean> {
    const teamName = `${user.display_name ?? user.primary_email ?? 'Your'}'s team`;
    return this.projects.claimIfOwnerless(trx, projectId, () =>
      this.teams.create(internalProject, { display_name: teamName }, user.id, trx),
    );
  }

  async transfer(internalUserId: string, projectId: string, newTeamId: string): Promise<void> {
    const project = await this.projects.find(projectId);
    if (!project || !(await this.manages(internalUserId, project))) throw new ProjectNotFoundError({ project_id: projectId });
    await this.assertTeamOfUser(internalUserId, newTeamId);
    await this.projects.setOwnerTeam(project.id, newTeamId);
  }

  async update(project: Project, input: ProjectUpdate): Promise<Project> {
    const entries = toProjectWriteOverride(input, project.config);
    const override = entries ? mergeOverride(project.config_override, entries) : undefined;
    const productionMode = input.is_production_mode ?? project.is_production_mode;
    // A config change is validated as a whole (the rules of the config override); production mode alone checks the domains.
    if (override) assertValidConfig(project.id, renderConfig(override), productionMode);
    else if (productionMode) assertProductionReady(project.id, project.config);
    await this.projects.update(project.id, {
      displayName: input.display_name,
      description: input.description,
      isProductionMode: input.is_production_mode,
      configOverride: override,
      ...detailsOf(input),
    });
    return (await this.projects.find(project.id)) as Project;
  }

  /** Merges entries into the override, validates the rendered result, and saves it. */
  async mergeConfigOverride(project: Project, overrideText: string): Promise<Project> {
    const override = mergeOverride(project.config_override, parseOverride(overrideText));
    const rendered = renderConfig(override);
    assertValidConfig(project.id, rendered, project.is_production_mode);
    await assertOidcProvidersReachable(project.config, rendered);
    await this.projects.update(project.id, { configOverride: override });
    return (await this.projects.find(project.id)) as Project;
  }

  /** Replaces the whole override (validated as rendered) and, when given, records its source. */
  async replaceConfigOverride(project: Project, overrideText: string, source: ConfigSource | undefined): Promise<Project> {
    const override = parseOverride(overrideText, 'config_string');
    const rendered = renderConfig(override);
    assertValidConfig(project.id, rendered, project.is_production_mode);
    await assertOidcProvidersReachable(project.config, rendered);
    await this.projects.update(project.id, { configOverride: override });
    if (source) await saveConfigSource(this.db, project.id, source);
    return (await this.projects.find(project.id)) as Project;
  }

  /** Removes what the override says at each dotted path (and below it); the rendered result must stay valid. */
  async resetConfigKeys(project: Project, keys: readonly string[]): Promise<void> {
    const override = keys.reduce((current, key) => withoutConfigPath(current, key.split('.')), project.config_override);
    assertValidConfig(project.id, renderConfig(override), project.is_production_mode);
    await this.projects.update(project.id, { configOverride: override });
  }

  async configSource(project: Project): Promise<ConfigSource> {
    return ((await findConfigSource(this.db, project.id)) as ConfigSource | undefined) ?? { type: 'unlinked' };
  }

  async unlinkConfigSource(project: Project): Promise<void> {
    await deleteConfigSource(this.db, project.id);
  }

  async delete(project: Project): Promise<void> {
    if (project.id === 'internal')
      throw new ProjectChangeRefusedError({ reason: 'internal_project_not_deletable' }, 'The internal project cannot be deleted.');
    await this.projects.delete(project.id);
  }

  private async assertTeamOfUser(internalUserId: string, teamId: string): Promise<void> {
    if (!(await this.teams.isMember(internalProjectId, teamId, internalUserId)))
      throw new ProjectChangeRefusedError(
        { reason: 'owner_team_not_allowed' },
        'The owner team must be a team of the internal project that you belong to.',
      );
  }
}
