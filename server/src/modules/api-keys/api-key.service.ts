import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ApiKeySetRow, Database } from '../../db/schema.ts';
import { TtlCache } from '../../lib/ttl-cache.ts';
import { findApiKeySetByDigest, insertApiKeySet, markApiKeySetRevoked } from './api-key.repository.ts';
import { type ProjectKeyKind, digestKey, generateProjectKey, lastFour, projectKeyKinds } from './key-format.ts';

export type NewKeySet = {
  projectId: string;
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
  /** digest → key set row (or null); revocation clears it so this instance sees it at once. */
  private readonly byDigest = new TtlCache<string, ApiKeySetRow | null>(5_000);

  constructor(private readonly db: Kysely<Database>) {}

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
    this.byDigest.clear();
    return { row, keys };
  }

  /** True when `key` is an active key of that kind belonging to `projectId`. */
  async isValidKey(projectId: string, kind: ProjectKeyKind, key: string): Promise<boolean> {
    const digest = digestKey(key);
    const row = await this.byDigest.getOrLoad(
      `${kind}:${digest}`,
      async () => (await findApiKeySetByDigest(this.db, kind, digest)) ?? null,
    );
    return row !== null && row.project_id === projectId && isKeySetActive(row);
  }

  async findKeySetByKey(kind: ProjectKeyKind, key: string): Promise<ApiKeySetRow | undefined> {
    return findApiKeySetByDigest(this.db, kind, digestKey(key));
  }

  list(projectId: string): Promise<ApiKeySetRow[]> {
    return this.db.selectFrom('api_key_set').selectAll().where('project_id', '=', projectId).orderBy('created_at', 'desc').execute();
  }

  async get(projectId: string, id: string): Promise<ApiKeySetRow | undefined> {
    return this.db.selectFrom('api_key_set').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
  }

  async describe(projectId: string, id: string, description: string): Promise<ApiKeySetRow | undefined> {
    return this.db
      .updateTable('api_key_set')
      .set({ description })
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async revokeKeySet(projectId: string, id: string): Promise<ApiKeySetRow | undefined> {
    const row = await markApiKeySetRevoked(this.db, projectId, id, new Date());
    this.byDigest.clear();
    return row;
  }
}
