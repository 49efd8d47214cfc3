import { randomUUID } from 'node:crypto';
import type { DbHandle } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { ApiKeySetRow } from './api-key-set.table.ts';
import { TtlCache } from '../../../lib/ttl-cache.ts';
import type { CacheInvalidationService } from '../cache-invalidation/index.ts';
import { apiKeySetsTopic } from '../cache-invalidation/index.ts';
import {
  describeApiKeySet,
  findApiKeySet,
  findApiKeySetByDigest,
  findApiKeySetByDigestInAnyProject,
  insertApiKeySet,
  listApiKeySets,
  markApiKeySetRevoked,
} from './api-key.repository.ts';
import { type ProjectKeyKind, digestKey, generateProjectKey, lastFour, projectKeyKinds } from './key-format.ts';

export type NewKeySet = {
  projectId: ProjectId;
  description: string;
  expiresAt: Date;
  /** Which keys to create; a value given here is stored instead of a random one (seeding). */
  keys: Partial<Record<ProjectKeyKind, true | string>>;
};

export type CreatedKeySet = { row: ApiKeySetRow; keys: Partial<Record<ProjectKeyKind, string>> };

/** A key set is usable until it expires or is revoked by hand. */
export const isKeySetActive = (row: ApiKeySetRow, now = new Date()): boolean =>
  row.manually_revoked_at === null && row.expires_at.getTime() > now.getTime();

/** The project key sets (pck_/ssk_/sak_): created with full values once, verified by digest. */
export class ApiKeyService {
  /** digest → key set row (or null); a new or revoked set clears it on every instance (cache-invalidation). */
  private readonly byDigest = new TtlCache<string, ApiKeySetRow | null>(5_000);

  constructor(
    private readonly db: DbHandle,
    private readonly invalidation: CacheInvalidationService,
  ) {
    invalidation.on(apiKeySetsTopic, () => this.byDigest.clear());
  }

  async createKeySet(input: NewKeySet): Promise<CreatedKeySet> {
    const keys: Partial<Record<ProjectKeyKind, string>> = {};
    for (const kind of projectKeyKinds) {
      const requested = input.keys[kind];
      if (requested) keys[kind] = requested === true ? generateProjectKey(kind) : requested;
    }
    const column = (kind: ProjectKeyKind) => {
      const key = keys[kind];
      return { [`${kind}_hash`]: key ? digestKey(key) : null, [`${kind}_last_four`]: key ? lastFour(key) : null };
    };
    const row = await insertApiKeySet(this.db, {
      id: randomUUID(),
      project_id: input.projectId,
      description: input.description,
      expires_at: input.expiresAt,
      manually_revoked_at: null,
      ...column('publishable_client_key'),
      ...column('secret_server_key'),
      ...column('super_secret_admin_key'),
    } as Parameters<typeof insertApiKeySet>[1]);
    await this.invalidation.publish(apiKeySetsTopic, input.projectId);
    return { row, keys };
  }

  /** True when `key` is an active key of that kind belonging to `projectId`. */
  async isValidKey(projectId: ProjectId, kind: ProjectKeyKind, key: string): Promise<boolean> {
    const digest = digestKey(key);
    const row = await this.byDigest.getOrLoad(
      `${projectId}:${kind}:${digest}`,
      async () => (await findApiKeySetByDigest(this.db, projectId, kind, digest)) ?? null,
    );
    return row !== null && isKeySetActive(row);
  }

  /** The key set holding this key in any project (seeding refuses a key another project holds). */
  async findKeySetInAnyProject(kind: ProjectKeyKind, key: string): Promise<ApiKeySetRow | undefined> {
    return findApiKeySetByDigestInAnyProject(this.db, kind, digestKey(key));
  }

  list(projectId: ProjectId): Promise<ApiKeySetRow[]> {
    return listApiKeySets(this.db, projectId);
  }

  async get(projectId: ProjectId, id: string): Promise<ApiKeySetRow | undefined> {
    return findApiKeySet(this.db, projectId, id);
  }

  async describe(projectId: ProjectId, id: string, description: string): Promise<ApiKeySetRow | undefined> {
    return describeApiKeySet(this.db, projectId, id, description);
  }

  async revokeKeySet(projectId: ProjectId, id: string): Promise<ApiKeySetRow | undefined> {
    const row = await markApiKeySetRevoked(this.db, projectId, id, new Date());
    await this.invalidation.publish(apiKeySetsTopic, projectId);
    return row;
  }
}
