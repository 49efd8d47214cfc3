import { randomUUID } from 'node:crypto';
import type { Kysely, Updateable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ProjectRow, ProjectTable } from '../../tenancy/project.table.ts';
import { TtlCache } from '../../lib/ttl-cache.ts';
import { mergeOverride, renderConfig } from '../../tenancy/project-config.ts';
import { isProjectId, type Project } from '../../tenancy/project.ts';
import { findProjectById, insertProject, updateProject, updateProjectConfigOverride } from './project.repository.ts';

/** The four logos (light and dark, square and full); null clears one. */
export type ProjectLogos = Partial<Pick<ProjectRow, 'logo_url' | 'logo_full_url' | 'logo_dark_mode_url' | 'logo_full_dark_mode_url'>>;

/** What the dashboard keeps about the project besides its config. */
interface ProjectDetails {
  logos?: ProjectLogos;
  onboardingStatus?: string;
  /** The setup wizard's choices; null clears them. */
  onboardingState?: object | null;
}

/** The row's columns for the details given; the setup choices are JSON, and null is SQL NULL (not JSON `null`). */
function detailColumns(details: ProjectDetails): Updateable<ProjectTable> {
  const columns: Updateable<ProjectTable> = { ...details.logos };
  if (details.onboardingStatus !== undefined) columns.onboarding_status = details.onboardingStatus;
  if (details.onboardingState !== undefined) {
    columns.onboarding_state = details.onboardingState === null ? null : JSON.stringify(details.onboardingState);
  }
  return columns;
}

/** Projects with their rendered config, cached for the hot path of every authenticated request. */
export class ProjectService {
  private readonly cache = new TtlCache<string, Project | null>(5_000);

  constructor(
    private readonly db: Kysely<Database>,
    /** Runs in the creating transaction: what every new project starts with (the default team roles). */
    private readonly onProjectCreated: (projectId: string, trx: Kysely<Database>) => Promise<void> = async () => {},
  ) {}

  async find(id: string): Promise<Project | undefined> {
    if (!isProjectId(id)) return undefined;
    const project = await this.cache.getOrLoad(id.toLowerCase(), async () => {
      const row = await findProjectById(this.db, id.toLowerCase());
      return row ? { ...row, config: renderConfig(row.config_override) } : null;
    });
    return project ?? undefined;
  }

  async create(
    input: {
      id?: string;
      displayName: string;
      description?: string;
      ownerTeamId?: string;
      isDevelopmentEnvironment?: boolean;
      isProductionMode?: boolean;
      configOverride?: Record<string, unknown>;
    } & ProjectDetails,
  ): Promise<Project> {
    const row = await this.db.transaction().execute(async (trx) => {
      const inserted = await insertProject(trx, {
        id: input.id ?? randomUUID(),
        display_name: input.displayName,
        description: input.description ?? '',
        owner_team_id: input.ownerTeamId ?? null,
        is_development_environment: input.isDevelopmentEnvironment ?? false,
        is_production_mode: input.isProductionMode ?? false,
        config_override: JSON.stringify(input.configOverride ?? {}),
        ...detailColumns(input),
      });
      await this.onProjectCreated(inserted.id, trx);
      return inserted;
    });
    this.cache.delete(row.id);
    return { ...row, config: renderConfig(row.config_override) };
  }

  /** Rewrites the three default-permission lists (a permission was renamed or deleted). */
  async updateDefaultPermissions(id: string, change: (ids: string[]) => string[], db: Kysely<Database> = this.db): Promise<void> {
    const row = await findProjectById(db, id);
    if (!row) return;
    const { defaultPermissions } = renderConfig(row.config_override).rbac;
    const lists = (['teamCreator', 'teamMember', 'signUp'] as const).map((list) => [
      `rbac.defaultPermissions.${list}`,
      Object.fromEntries(change(Object.keys(defaultPermissions[list])).map((permission) => [permission, true])),
    ]);
    await updateProjectConfigOverride(db, id, mergeOverride(row.config_override, Object.fromEntries(lists)));
    this.cache.delete(id);
  }

  /** Drops the cached row (a transaction that changed it has committed). */
  forget(id: string): void {
    this.cache.delete(id);
  }

  async update(
    id: string,
    changes: {
      displayName?: string;
      description?: string;
      isProductionMode?: boolean;
      configOverride?: Record<string, unknown>;
    } & ProjectDetails,
  ): Promise<void> {
    await updateProject(this.db, id, {
      ...(changes.isProductionMode !== undefined ? { is_production_mode: changes.isProductionMode } : {}),
      ...(changes.displayName !== undefined ? { display_name: changes.displayName } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.configOverride !== undefined ? { config_override: JSON.stringify(changes.configOverride) } : {}),
      ...detailColumns(changes),
    });
    this.cache.delete(id);
  }

  async setOwnerTeam(id: string, teamId: string): Promise<void> {
    await this.db.updateTable('project').set({ owner_team_id: teamId }).where('id', '=', id).execute();
    this.cache.delete(id);
  }

  /** Deletes the project and, by cascade, everything in it. */
  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('project').where('id', '=', id).execute();
    this.cache.delete(id);
  }

  async replaceConfigOverride(id: string, override: Record<string, unknown>): Promise<void> {
    await updateProjectConfigOverride(this.db, id, override);
    this.cache.delete(id);
  }
}
