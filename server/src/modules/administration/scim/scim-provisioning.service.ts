import { randomUUID } from 'node:crypto';
import { type DbHandle, inTransaction } from '../../../db/handle.ts';
import { isUniqueViolation } from '../../../db/unique-violation.ts';
import { ScimProtocolError } from '../../../lib/scim-error.ts';
import type { AuditEvent, AuditLog } from '../audit-log/index.ts';
import type { SessionService } from '../../authentication/sessions/index.ts';
import type { TeamService } from '../../organisations/teams/index.ts';
import type { UserService } from '../../identity/users/index.ts';
import type { ScimContext } from './scim-directory.service.ts';
import type { ScimGroupPermissions } from './scim-group-permissions.ts';
import { applyPatch, type GroupInput, readGroup, readUser, type UserInput } from './scim-input.ts';
import { listResponse, type ScimObject, toScimGroup, toScimUser } from './scim-resources.ts';
import * as repository from './scim.repository.ts';
import type { ScimUserRow } from './scim.table.ts';

type ListQuery = { filter?: string; startIndex?: number; count?: number };
const notFound = (kind: string) => new ScimProtocolError(404, `No ${kind} with this id in the directory.`);
const conflict = (detail: string) => new ScimProtocolError(409, detail, 'uniqueness');

/**
 * Users and groups provisioned through a team's directory. A SCIM user is a project user who, while
 * active, is a member of the team; deactivating or deleting it removes the membership and ends every
 * session of the user (refresh tokens deleted) in the same transaction, with its audit entry.
 */
export class ScimProvisioningService {
  constructor(
    private readonly db: DbHandle,
    private readonly users: UserService,
    private readonly teams: TeamService,
    private readonly sessions: SessionService,
    private readonly auditLog: AuditLog,
    private readonly groupPermissions: ScimGroupPermissions,
  ) {}

  async listUsers(context: ScimContext, query: ListQuery): Promise<ScimObject> {
    const rows = await repository.listScimUsers(this.db, context.directory.id);
    return listResponse(
      rows.map((row) => toScimUser(row, context.baseUrl)),
      query,
    );
  }

  async getUser(context: ScimContext, id: string): Promise<ScimObject> {
    const row = await repository.findScimUser(this.db, context.directory.id, id);
    if (!row) throw notFound('user');
    return toScimUser(row, context.baseUrl);
  }

  async createUser(context: ScimContext, resource: ScimObject): Promise<ScimObject> {
    const input = readUser(resource);
    const { project, directory } = context;
    return this.write('A user with this userName is already provisioned in this directory.', async (trx) => {
      const existing = await this.users.findByAuthEmail(project.id, input.email);
      const user =
        existing ??
        (await this.users.create(
          project,
          { primary_email: input.email, primary_email_verified: true, primary_email_auth_enabled: true, display_name: input.displayName },
          'server',
        ));
      const row = await repository.insertScimUser(trx, {
        id: randomUUID(),
        directory_id: directory.id,
        project_id: project.id,
        user_id: user.id,
        user_name: input.userName,
        external_id: input.externalId,
        active: input.active,
        resource: JSON.stringify(stored(resource)),
        deleted_at: null,
      });
      if (input.active) await this.join(context, user.id, trx);
      await this.record(trx, context, 'scim.user_provisioned', row, { linked_existing_user: existing !== undefined });
      return toScimUser(row, context.baseUrl);
    });
  }

  replaceUser(context: ScimContext, id: string, resource: ScimObject): Promise<ScimObject> {
    return this.changeUser(context, id, () => resource);
  }

  patchUser(context: ScimContext, id: string, body: ScimObject): Promise<ScimObject> {
    return this.changeUser(context, id, (current) => applyPatch(current, body));
  }

  /** Soft delete: the SCIM user is gone, the project user leaves the team and is signed out everywhere. */
  async deleteUser(context: ScimContext, id: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      const row = await repository.findScimUser(trx, context.directory.id, id);
      if (!row) throw notFound('user');
      const deleted = await repository.updateScimUser(trx, context.directory.id, id, { deleted_at: new Date(), active: false });
      await this.leave(context, row.user_id, trx);
      await this.record(trx, context, 'scim.user_deprovisioned', deleted);
    });
  }

  private changeUser(context: ScimContext, id: string, change: (current: ScimObject) => ScimObject): Promise<ScimObject> {
    return this.write('A user with this userName is already provisioned in this directory.', async (trx) => {
      const row = await repository.findScimUser(trx, context.directory.id, id);
      if (!row) throw notFound('user');
      const next = change(toScimUser(row, context.baseUrl));
      const input: UserInput = readUser(next);
      const updated = await repository.updateScimUser(trx, context.directory.id, id, {
        user_name: input.userName,
        external_id: input.externalId,
        active: input.active,
        resource: JSON.stringify(stored(next)),
      });
      if (input.displayName !== null) await this.users.update(context.project, row.user_id, { display_name: input.displayName });
      if (row.active && !input.active) await this.leave(context, row.user_id, trx);
      if (!row.active && input.active) await this.join(context, row.user_id, trx);
      const action =
        row.active && !input.active ? 'scim.user_deactivated' : !row.active && input.active ? 'scim.user_reactivated' : 'scim.user_updated';
      await this.record(trx, context, action, updated);
      return toScimUser(updated, context.baseUrl);
    });
  }

  async listGroups(context: ScimContext, query: ListQuery): Promise<ScimObject> {
    const rows = await repository.listScimGroups(this.db, context.directory.id);
    return listResponse(
      rows.map((row) => toScimGroup(row, context.baseUrl)),
      query,
    );
  }

  async getGroup(context: ScimContext, id: string): Promise<ScimObject> {
    const row = await repository.findScimGroup(this.db, context.directory.id, id);
    if (!row) throw notFound('group');
    return toScimGroup(row, context.baseUrl);
  }

  async createGroup(context: ScimContext, resource: ScimObject): Promise<ScimObject> {
    const input = await this.knownMembers(context, readGroup(resource));
    return this.write('A group with this displayName already exists in this directory.', async (trx) => {
      const row = await repository.insertScimGroup(trx, {
        id: randomUUID(),
        directory_id: context.directory.id,
        project_id: context.project.id,
        display_name: input.displayName,
        external_id: input.externalId,
        member_ids: JSON.stringify(input.memberIds),
      });
      await this.groupPermissions.syncMembers(trx, context, input.memberIds);
      await this.recordGroup(trx, context, 'scim.group_created', row.id, input);
      return toScimGroup(row, context.baseUrl);
    });
  }

  replaceGroup(context: ScimContext, id: string, resource: ScimObject): Promise<ScimObject> {
    return this.changeGroup(context, id, () => resource);
  }

  patchGroup(context: ScimContext, id: string, body: ScimObject): Promise<ScimObject> {
    return this.changeGroup(context, id, (current) => applyPatch(current, body));
  }

  async deleteGroup(context: ScimContext, id: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      const row = await repository.findScimGroup(trx, context.directory.id, id);
      if (!row || !(await repository.deleteScimGroup(trx, context.directory.id, id))) throw notFound('group');
      // Its members lose what only this group granted them.
      await this.groupPermissions.syncMembers(trx, context, row.member_ids);
      const event: AuditEvent = { action: 'scim.group_deleted', teamId: context.directory.team_id, target: { type: 'scim_group', id } };
      await this.auditLog.record(trx, context.project.id, { ...event, actor: actorOf(context) });
    });
  }

  private changeGroup(context: ScimContext, id: string, change: (current: ScimObject) => ScimObject): Promise<ScimObject> {
    return this.write('A group with this displayName already exists in this directory.', async (trx) => {
      const row = await repository.findScimGroup(trx, context.directory.id, id);
      if (!row) throw notFound('group');
      const input = await this.knownMembers(context, readGroup(change(toScimGroup(row, context.baseUrl))));
      const updated = await repository.updateScimGroup(trx, context.directory.id, id, {
        display_name: input.displayName,
        external_id: input.externalId,
        member_ids: JSON.stringify(input.memberIds),
      });
      // Members added or removed, and (a renamed group may map differently) everyone in it before and after.
      await this.groupPermissions.syncMembers(trx, context, [...row.member_ids, ...input.memberIds]);
      await this.recordGroup(trx, context, 'scim.group_updated', id, input);
      return toScimGroup(updated, context.baseUrl);
    });
  }

  /** Members must be live users of the directory (RFC 7644 §3.5.2: an unknown member is invalidValue). */
  private async knownMembers(context: ScimContext, input: GroupInput): Promise<GroupInput> {
    const users = new Set((await repository.listScimUsers(this.db, context.directory.id)).map((row) => row.id));
    const unknown = input.memberIds.find((id) => !users.has(id));
    if (unknown) throw new ScimProtocolError(400, `No user ${unknown} in this directory.`, 'invalidValue');
    return input;
  }

  /** Runs a write in a transaction; a userName or group name taken in the directory is 409 `uniqueness`. */
  private async write<T>(conflictDetail: string, work: (trx: DbHandle) => Promise<T>): Promise<T> {
    try {
      return await inTransaction(this.db, work);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(conflictDetail);
      throw error;
    }
  }

  private async join(context: ScimContext, userId: string, trx: DbHandle): Promise<void> {
    if (!(await this.teams.isMember(context.project.id, context.directory.team_id, userId, trx)))
      await this.teams.addMember(context.project, context.directory.team_id, userId);
    await this.groupPermissions.sync(trx, context, [userId]);
  }

  private async leave(context: ScimContext, userId: string, trx: DbHandle): Promise<void> {
    if (await this.teams.isMember(context.project.id, context.directory.team_id, userId, trx))
      await this.teams.removeMember(context.project.id, context.directory.team_id, userId);
    await this.sessions.endAllOfUser(context.project.id, userId, undefined, trx);
    await this.groupPermissions.dropAll(trx, context, userId);
  }

  private record(trx: DbHandle, context: ScimContext, action: string, row: ScimUserRow, details: Record<string, unknown> = {}) {
    return this.auditLog.record(trx, context.project.id, {
      action,
      teamId: context.directory.team_id,
      target: { type: 'user', id: row.user_id },
      actor: actorOf(context),
      details: { scim_user_id: row.id, user_name: row.user_name, directory_id: context.directory.id, ...details },
    });
  }

  private recordGroup(trx: DbHandle, context: ScimContext, action: string, id: string, input: GroupInput) {
    return this.auditLog.record(trx, context.project.id, {
      action,
      teamId: context.directory.team_id,
      target: { type: 'scim_group', id },
      actor: actorOf(context),
      details: { display_name: input.displayName, member_count: input.memberIds.length, directory_id: context.directory.id },
    });
  }
}

const actorOf = (context: ScimContext) => ({ type: 'scim_directory' as const, id: context.directory.id });

/** What is kept of a resource: what the provider sent but the attributes the service owns, and never a password. */
function stored(resource: ScimObject): ScimObject {
  const { id: _id, meta: _meta, userName: _userName, active: _active, externalId: _externalId, password: _password, ...rest } = resource;
  return rest;
}
