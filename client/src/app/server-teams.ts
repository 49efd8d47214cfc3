import { TeamNotFoundError } from '../errors.ts';
import { type AppCall, definedOnly, orNull, queryBoolean } from './app-call.ts';
import type {
  ApiKeyCreate,
  ProjectPermission,
  ServerTeam,
  TeamApiKeyCreatedData,
  TeamApiKeyData,
  TeamCreate,
  TeamInvitation,
  TeamMemberProfile,
  TeamMembership,
  TeamPermission,
  TeamUpdate,
  UserApiKeyCreatedData,
  UserApiKeyData,
} from './app-types.ts';
import * as op from '@gatehouse/protocol/operations';

export type ServerTeams = {
  /** Every team of the project, or the teams of one user. */
  list(options?: { userId?: string }): Promise<ServerTeam[]>;
  /** null when there is no such team. */
  get(teamId: string): Promise<ServerTeam | null>;
  /** With `creator_user_id`, that user joins with the team-creator permissions. */
  create(team: TeamCreate): Promise<ServerTeam>;
  update(teamId: string, changes: TeamUpdate): Promise<ServerTeam>;
  delete(teamId: string): Promise<void>;
  /** The user joins with the team-member default permissions. */
  addMember(teamId: string, userId: string): Promise<TeamMembership>;
  removeMember(teamId: string, userId: string): Promise<void>;
  /** The members' team profiles, each with its `user`. */
  listMembers(teamId: string): Promise<TeamMemberProfile[]>;
  /** Emails `callbackUrl?code=…` to the invitee. */
  sendInvitation(teamId: string, options: { email: string; callbackUrl: string }): Promise<{ id: string }>;
  listInvitations(teamId: string): Promise<TeamInvitation[]>;
  revokeInvitation(teamId: string, invitationId: string): Promise<void>;
};

type PermissionQuery = { userId?: string; permissionId?: string; recursive?: boolean };

export type ServerTeamPermissions = {
  grant(teamId: string, userId: string, permissionId: string): Promise<TeamPermission>;
  revoke(teamId: string, userId: string, permissionId: string): Promise<void>;
  /** Grants with the permissions they contain; `recursive: false` for the direct grants only. */
  list(filter?: PermissionQuery & { teamId?: string }): Promise<TeamPermission[]>;
  /** Held directly or through a permission that contains it. */
  has(teamId: string, userId: string, permissionId: string): Promise<boolean>;
};

export type ServerProjectPermissions = {
  grant(userId: string, permissionId: string): Promise<ProjectPermission>;
  revoke(userId: string, permissionId: string): Promise<void>;
  /** Grants with the permissions they contain; `recursive: false` for the direct grants only. */
  list(filter?: PermissionQuery): Promise<ProjectPermission[]>;
  has(userId: string, permissionId: string): Promise<boolean>;
};

/** API keys of end users and teams (enabled per project); `check` is how your backend accepts one. */
export type ServerApiKeys = {
  listUserKeys(userId: string): Promise<UserApiKeyData[]>;
  createUserKey(userId: string, key: ApiKeyCreate): Promise<UserApiKeyCreatedData>;
  revokeUserKey(userId: string, keyId: string): Promise<UserApiKeyData>;
  /** The key's record; ApiKeyNotFoundError, ApiKeyRevokedError, ApiKeyExpiredError or WrongApiKeyTypeError otherwise. */
  checkUserKey(apiKey: string): Promise<UserApiKeyData>;
  listTeamKeys(teamId: string): Promise<TeamApiKeyData[]>;
  createTeamKey(teamId: string, key: ApiKeyCreate): Promise<TeamApiKeyCreatedData>;
  revokeTeamKey(teamId: string, keyId: string): Promise<TeamApiKeyData>;
  checkTeamKey(apiKey: string): Promise<TeamApiKeyData>;
};

export function serverTeams(call: AppCall): ServerTeams {
  return {
    list: async (options = {}) => (await call(op.listTeams, { query: definedOnly({ user_id: options.userId }) })).items as ServerTeam[],
    get: (teamId) => orNull(call(op.getTeam, { params: { team_id: teamId } }) as Promise<ServerTeam>, TeamNotFoundError),
    create: async (team) => (await call(op.createTeam, { body: team })) as ServerTeam,
    update: async (teamId, changes) => (await call(op.updateTeam, { params: { team_id: teamId }, body: changes })) as ServerTeam,
    delete: async (teamId) => {
      await call(op.deleteTeam, { params: { team_id: teamId } });
    },
    addMember: (teamId, userId) => call(op.createTeamMembership, { params: { team_id: teamId, user_id: userId } }),
    removeMember: async (teamId, userId) => {
      await call(op.deleteTeamMembership, { params: { team_id: teamId, user_id: userId } });
    },
    listMembers: async (teamId) => (await call(op.listTeamMemberProfiles, { query: { team_id: teamId } })).items,
    sendInvitation: async (teamId, { email, callbackUrl }) => {
      const sent = await call(op.sendTeamInvitation, { body: { team_id: teamId, email, callback_url: callbackUrl } });
      return { id: sent.id };
    },
    listInvitations: async (teamId) => (await call(op.listTeamInvitations, { query: { team_id: teamId } })).items,
    revokeInvitation: async (teamId, invitationId) => {
      await call(op.deleteTeamInvitation, { params: { invitation_id: invitationId }, query: { team_id: teamId } });
    },
  };
}

const permissionQuery = (filter: PermissionQuery) =>
  definedOnly({ user_id: filter.userId, permission_id: filter.permissionId, recursive: queryBoolean(filter.recursive ?? true) });

export function serverTeamPermissions(call: AppCall): ServerTeamPermissions {
  const list: ServerTeamPermissions['list'] = async (filter = {}) =>
    (await call(op.listTeamPermissions, { query: { ...permissionQuery(filter), ...definedOnly({ team_id: filter.teamId }) } })).items;
  return {
    grant: (teamId, userId, permissionId) =>
      call(op.createTeamPermission, { params: { team_id: teamId, user_id: userId, permission_id: permissionId } }),
    revoke: async (teamId, userId, permissionId) => {
      await call(op.deleteTeamPermission, { params: { team_id: teamId, user_id: userId, permission_id: permissionId } });
    },
    list,
    has: async (teamId, userId, permissionId) => (await list({ teamId, userId, permissionId, recursive: true })).length > 0,
  };
}

export function serverProjectPermissions(call: AppCall): ServerProjectPermissions {
  const list: ServerProjectPermissions['list'] = async (filter = {}) =>
    (await call(op.listProjectPermissions, { query: permissionQuery(filter) })).items;
  return {
    grant: (userId, permissionId) => call(op.createProjectPermission, { params: { user_id: userId, permission_id: permissionId } }),
    revoke: async (userId, permissionId) => {
      await call(op.deleteProjectPermission, { params: { user_id: userId, permission_id: permissionId } });
    },
    list,
    has: async (userId, permissionId) => (await list({ userId, permissionId, recursive: true })).length > 0,
  };
}

export function serverApiKeys(call: AppCall): ServerApiKeys {
  return {
    listUserKeys: async (userId) => (await call(op.listUserApiKeys, { query: { user_id: userId } })).items,
    createUserKey: (userId, key) => call(op.createUserApiKey, { body: { ...key, user_id: userId } }),
    revokeUserKey: (userId, keyId) =>
      call(op.updateUserApiKey, { params: { api_key_id: keyId }, query: { user_id: userId }, body: { revoked: true } }),
    checkUserKey: (apiKey) => call(op.checkUserApiKey, { body: { api_key: apiKey } }),
    listTeamKeys: async (teamId) => (await call(op.listTeamApiKeys, { query: { team_id: teamId } })).items,
    createTeamKey: (teamId, key) => call(op.createTeamApiKey, { body: { ...key, team_id: teamId } }),
    revokeTeamKey: (teamId, keyId) =>
      call(op.updateTeamApiKey, { params: { api_key_id: keyId }, query: { team_id: teamId }, body: { revoked: true } }),
    checkTeamKey: (apiKey) => call(op.checkTeamApiKey, { body: { api_key: apiKey } }),
  };
}
