import { randomUUID } from 'node:crypto';
import { type DbHandle, inTransaction } from '../../../db/handle.ts';
import { Hook } from '../../../kernel/hook.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { ProjectRow } from '../../../tenancy/project.table.ts';
import { TtlCache } from '../../../lib/ttl-cache.ts';
import type { CacheInvalidationService } from '../cache-invalidation/index.ts';
import { projectTopic, verifiedTokensTopic } from '../cache-invalidation/index.ts';
import { mergeOverride, renderConfig } from '../../../tenancy/project-config.ts';
import { isProjectId, type Project } from '../../../tenancy/project.ts';
import {
  deleteProject,
  findProjectById,
  insertProject,
  listProjectsOwnedBy,
  lockOwnerlessProject,
  updateProject,
  updateProjectConfigOverride,
} from './project.repository.ts';
import type { AtRestCipher } from '../../../lib/at-rest-cipher.ts';
import { openConfigSecrets, sealConfigSecrets } from './config-secret-sealing.ts';
import type { AuditLog } from '../../administration/audit-log/index.ts';

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
function detailColumns(details: ProjectDetails): Parameters<typeof updateProject>[2] {
  const columns: Parameters<typeof updateProject>[2] = { ...details.logos };
  if (details.onboardingStatus !== undefined) columns.onboarding_status = details.onboardingStatus;
  if (details.onboardingState !== undefined) {
    columns.onboarding_state = details.onboardingState === null ? null : JSON.stringify(details.onboardingState);
  }
  return columns;
}

/** Projects with their rendered config, cached for the hot path of every authenticated request. */
export class ProjectService {
  private readonly cache = new TtlCache<string, Project | null>(5_000);
  /** Runs in the creating transaction: what every new project starts with (the default team roles). */
  readonly created = new Hook<[trx: DbHandle, projectId: ProjectId]>();

  constructor(
    private readonly db: DbHandle,
    private readonly invalidation: CacheInvalidationService,
    private readonly cipher: AtRestCipher,
    private readonly auditLog: AuditLog,
  ) {
    invalidation.on(projectTopic, (id) => (id === undefined ? this.cache.clear() : this.cache.delete(id)));
  }

  /** Drops the project's cached row here and on every other instance. */
  private changed(id: string): Promise<void> {
    return this.invalidation.publish(projectTopic, id);
  }

  async find(id: string): Promise<Project | undefined> {
    if (!isProjectId(id)) return undefined;
    const project = await this.cache.getOrLoad(id.toLowerCase(), async () => {
      const row = await findProjectById(this.db, id.toLowerCase());
      return row ? this.withConfig(row) : null;
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
    const row = await inTransaction(this.db, async (trx) => {
      const inserted = await insertProject(trx, {
        id: input.id ?? randomUUID(),
        display_name: input.displayName,
        description: input.description ?? '',
        owner_team_id: input.ownerTeamId ?? null,
        is_development_environment: input.isDevelopmentEnvironment ?? false,
        is_production_mode: input.isProductionMode ?? false,
        config_override: JSON.stringify(sealConfigSecrets(this.cipher, input.configOverride ?? {})),
        ...detailColumns(input),
      });
      await this.created.run(trx, inserted.id);
      return inserted;
    });
    await this.changed(row.id);
    return this.withConfig(row);
  }

  /** Rewrites the three default-permission lists (a permission was renamed or deleted). */
  async updateDefaultPermissions(id: ProjectId, change: (ids: string[]) => string[], db: DbHandle = this.db): Promise<void> {
    const stored = await findProjectById(db, id);
    if (!stored) return;
    const row = this.withConfig(stored);
    const { defaultPermissions } = row.config.rbac;
    const lists = (['teamCreator', 'teamMember', 'signUp'] as const).map((list) => [
      `rbac.defaultPermissions.${list}`,
      Object.fromEntries(change(Object.keys(defaultPermissions[list])).map((permission) => [permission, true])),
    ]);
    await updateProjectConfigOverride(
      db,
      id,
      sealConfigSecrets(this.cipher, mergeOverride(row.config_override, Object.fromEntries(lists))),
    );
    await this.changed(id);
  }

  /** Drops the cached row everywhere (a transaction that changed it has committed). */
  forget(id: string): Promise<void> {
    return this.changed(id);
  }

  async update(
    id: ProjectId,
    changes: {
      displayName?: string;
      description?: string;
      isProductionMode?: boolean;
      configOverride?: Record<string, unknown>;
    } & ProjectDetails,
  ): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      await updateProject(trx, id, {
        ...(changes.isProductionMode !== undefined ? { is_production_mode: changes.isProductionMode } : {}),
        ...(changes.displayName !== undefined ? { display_name: changes.displayName } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...(changes.configOverride !== undefined
          ? { config_override: JSON.stringify(sealConfigSecrets(this.cipher, changes.configOverride)) }
          : {}),
        ...detailColumns(changes),
      });
      // Names what changed, never values (the config holds secrets).
      const fields = Object.keys(changes).filter((key) => key !== 'configOverride' && changes[key as keyof typeof changes] !== undefined);
      const configKeys = changes.configOverride === undefined ? [] : Object.keys(changes.configOverride);
      await this.auditLog.record(trx, id, {
        action: 'project.config_updated',
        target: { type: 'project', id },
        details: { fields, config_keys: configKeys },
      });
    });
    await this.changed(id);
  }

  /**
   * In the caller's transaction: gives the project to the team `makeTeam` creates, if no team owns it
   * yet (true then); `makeTeam` runs only then. The cached row is dropped here at once and, across
   * instances, when the transaction commits.
   */
  async claimIfOwnerless(trx: DbHandle, id: ProjectId, makeTeam: () => Promise<{ id: string }>): Promise<boolean> {
    if (!(await lockOwnerlessProject(trx, id))) return false;
    const team = await makeTeam();
    await updateProject(trx, id, { owner_team_id: team.id });
    await this.invalidation.publish(projectTopic, id, trx);
    return true;
  }

  async setOwnerTeam(id: ProjectId, teamId: string): Promise<void> {
    await updateProject(this.db, id, { owner_team_id: teamId });
    await this.changed(id);
  }

  /** Deletes the project and, by cascade, everything in it. */
  async delete(id: ProjectId): Promise<void> {
    await deleteProject(this.db, id);
    await this.changed(id);
    // Tokens of a deleted project are dropped from every instance's verified-token cache.
    await this.invalidation.publish(verifiedTokensTopic, id);
  }

  /** The projects the given teams own, oldest first. */
  async listOwnedBy(teamIds: readonly string[]): Promise<Project[]> {
    return (await listProjectsOwnedBy(this.db, teamIds)).map((row) => this.withConfig(row));
  }

  async replaceConfigOverride(id: ProjectId, override: Record<string, unknown>): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      await updateProjectConfigOverride(trx, id, sealConfigSecrets(this.cipher, override));
      const details = { fields: [], config_keys: Object.keys(override) };
      await this.auditLog.record(trx, id, { action: 'project.config_updated', target: { type: 'project', id }, details });
    });
    await this.changed(id);
  }

  /** The stored row with its override's secrets opened, and the config rendered from it. */
  private withConfig(row: ProjectRow): Project {
    const override = openConfigSecrets(this.cipher, row.config_override);
    return { ...row, config_override: override, config: renderConfig(override) };
  }
}
