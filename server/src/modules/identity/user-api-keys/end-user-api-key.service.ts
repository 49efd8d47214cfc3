import { randomUUID } from 'node:crypto';
import { ApiKeyExpiredError, ApiKeyNotFoundError, ApiKeyRevokedError, WrongApiKeyTypeError } from '@gatehouse/protocol/errors';
import type { components } from '@gatehouse/protocol/api-types';
import { type DbHandle, inTransaction } from '../../../db/handle.ts';
import type { AuditEvent, AuditLog } from '../../administration/audit-log/index.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import { findKey, findKeyByHash, insertKey, listKeys, type OwnerColumn, updateKey } from './end-user-api-key.repository.ts';
import type { EndUserApiKeyRow } from './end-user-api-key.table.ts';
import { digestSecret } from '../../../lib/digest.ts';
import { PlainHttpError } from '../../../lib/plain-http-error.ts';
import type { Project } from '../../../tenancy/project.ts';
import { generateEndUserKey, parseEndUserKey } from './end-user-key-format.ts';

export type KeyType = 'user' | 'team';
export type KeyOwner = { type: 'user'; userId: string } | { type: 'team'; teamId: string };

const ownerColumn = (owner: KeyOwner): OwnerColumn =>
  owner.type === 'user' ? { column: 'user_id' as const, id: owner.userId } : { column: 'team_id' as const, id: owner.teamId };

/** The fields both kinds share; the value shows only its last four characters after creation. */
function commonView(row: EndUserApiKeyRow) {
  return {
    id: row.id,
    description: row.description,
    ...(row.expires_at ? { expires_at_millis: row.expires_at.getTime() } : {}),
    ...(row.manually_revoked_at ? { manually_revoked_at_millis: row.manually_revoked_at.getTime() } : {}),
    created_at_millis: row.created_at.getTime(),
    is_public: row.is_public,
    value: { last_four: row.last_four },
  };
}

export const toUserApiKey = (row: EndUserApiKeyRow): components['schemas']['UserApiKey'] => ({
  ...commonView(row),
  type: 'user',
  user_id: row.user_id as string,
});
export const toTeamApiKey = (row: EndUserApiKeyRow): components['schemas']['TeamApiKey'] => ({
  ...commonView(row),
  type: 'team',
  team_id: row.team_id as string,
});

/** The audit entry of a key's creation or revocation (never its value). */
const auditOfKey = (action: string, row: EndUserApiKeyRow): AuditEvent => ({
  action,
  teamId: row.team_id,
  target: { type: 'api_key', id: row.id },
  details: { key_type: row.type, user_id: row.user_id, team_id: row.team_id, last_four: row.last_four },
});

/** API keys of end users and teams: created with the full value once, then found by digest. */
export class EndUserApiKeyService {
  constructor(
    private readonly db: DbHandle,
    private readonly auditLog: AuditLog,
  ) {}

  assertEnabled(project: Project, type: KeyType): void {
    if (!project.config.apiKeys.enabled[type])
      throw new PlainHttpError(400, `${type === 'user' ? 'User' : 'Team'} API keys are not enabled for this project.`);
  }

  async create(project: Project, owner: KeyOwner, input: { description: string; expires_at_millis?: number | null; is_public?: boolean }) {
    const id = randomUUID();
    const value = generateEndUserKey({ id, type: owner.type, isPublic: input.is_public ?? false });
    const { column, id: ownerId } = ownerColumn(owner);
    const row = await inTransaction(this.db, async (trx) => {
      const inserted = await insertKey(trx, {
        id,
        project_id: project.id,
        type: owner.type,
        user_id: column === 'user_id' ? ownerId : null,
        team_id: column === 'team_id' ? ownerId : null,
        description: input.description,
        is_public: input.is_public ?? false,
        expires_at: input.expires_at_millis == null ? null : new Date(input.expires_at_millis),
        manually_revoked_at: null,
        key_hash: digestSecret(value),
        last_four: value.slice(-4),
      });
      await this.auditLog.record(trx, project.id, auditOfKey('api_key.created', inserted));
      return inserted;
    });
    return { row, value };
  }

  list(projectId: ProjectId, owner: KeyOwner): Promise<EndUserApiKeyRow[]> {
    return listKeys(this.db, projectId, ownerColumn(owner));
  }

  async get(projectId: ProjectId, owner: KeyOwner, keyId: string): Promise<EndUserApiKeyRow> {
    const row = await findKey(this.db, projectId, ownerColumn(owner), keyId);
    if (!row) throw new ApiKeyNotFoundError();
    return row;
  }

  async update(
    projectId: ProjectId,
    owner: KeyOwner,
    keyId: string,
    input: { description?: string; revoked?: true },
  ): Promise<EndUserApiKeyRow> {
    const current = await this.get(projectId, owner, keyId);
    const changes = {
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.revoked && !current.manually_revoked_at ? { manually_revoked_at: new Date() } : {}),
    };
    if (Object.keys(changes).length === 0) return current;
    return inTransaction(this.db, async (trx) => {
      const updated = await updateKey(trx, projectId, keyId, changes);
      if (changes.manually_revoked_at) await this.auditLog.record(trx, projectId, auditOfKey('api_key.revoked', updated));
      return updated;
    });
  }

  /** The key's owner if it is valid; expired wins over revoked when both apply. */
  async check(projectId: ProjectId, expected: KeyType, key: string): Promise<EndUserApiKeyRow> {
    const claimed = parseEndUserKey(key);
    const row = claimed && (await findKeyByHash(this.db, projectId, digestSecret(key)));
    if (!claimed || !row) throw new ApiKeyNotFoundError();
    if (row.type !== expected) throw new WrongApiKeyTypeError({ expected_type: expected, actual_type: row.type });
    if (row.expires_at && row.expires_at.getTime() <= Date.now()) throw new ApiKeyExpiredError();
    if (row.manually_revoked_at) throw new ApiKeyRevokedError();
    return row;
  }
}
