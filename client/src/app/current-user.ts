import type { OperationBody, Schema } from '@gatehouse/protocol/operation-types';
import type { AppCall } from './app-call.ts';
import { orNull } from './app-call.ts';
import type {
  AdminProject,
  ApiKeyCreate,
  ClientCurrentUserData,
  CurrentUserUpdate,
  ProjectCreate,
  ProjectPermission,
  SessionInfo,
  TeamCreate,
  TeamPermission,
} from './app-types.ts';
import { clientTeam, type Team } from './client-team.ts';
import { type ContactChannel, contactChannel, type UserApiKey, type UserApiKeyCreated, userApiKey } from './user-resources.ts';
import { TeamNotFoundError } from '../errors.ts';
import { type PasskeyCeremonies, relyingPartyId } from './passkey-ceremonies.ts';
import * as op from '@gatehouse/protocol/operations';

/** A team, or its id. */
export type TeamRef = { id: string } | string;

/** What a client may set on a team it creates (the creator is always the signed-in user). */
export type ClientTeamCreate = Pick<TeamCreate, 'display_name' | 'profile_image_url' | 'client_metadata'>;

/** A contact channel the signed-in user adds: `createContactChannel`'s body without what the client fills in. */
export type NewContactChannel = Pick<OperationBody<'createContactChannel'>, 'value' | 'used_for_auth' | 'is_primary'>;

/**
 * The signed-in user: a snapshot of its data (`ClientCurrentUser` of the spec) plus methods. The
 * object never changes; methods that change the user resolve to a new snapshot.
 */
export type CurrentUser = ClientCurrentUserData & {
  /** Changes the user; resolves to the changed user. */
  update(changes: CurrentUserUpdate): Promise<CurrentUser>;
  /** Deletes the user (the project must allow client deletion) and signs out here. */
  delete(): Promise<void>;
  /** Keeps this session and ends the others; PasswordConfirmationMismatchError on a wrong old password. */
  updatePassword(options: { oldPassword: string; newPassword: string }): Promise<void>;
  /** For a user without a password (signed up by magic link or OAuth). */
  setPassword(password: string): Promise<void>;
  /** Emails a verification link for the primary email: `callbackUrl?code=…`, checked by `app.verifyEmail(code)`. */
  sendVerificationEmail(options: { callbackUrl: string }): Promise<void>;
  /** Revokes this session on the server and forgets its tokens. */
  signOut(): Promise<void>;
  /** Creates a passkey for this site and the user (the project must enable passkeys). */
  registerPasskey(): Promise<void>;
  /**
   * New one-time recovery codes for the second factor (TOTP is turned on with
   * `update({ totp_secret_base64 })`), replacing earlier ones; shown this once.
   */
  createMfaRecoveryCodes(): Promise<string[]>;

  listTeams(): Promise<Team[]>;
  /** null when there is no such team or the user is not a member. */
  getTeam(teamId: string): Promise<Team | null>;
  /** The project must allow client team creation; the user becomes a member with the creator permissions. */
  createTeam(team: ClientTeamCreate): Promise<Team>;
  /** Resolves to the user with the new selected team (null: none). */
  setSelectedTeam(team: TeamRef | null): Promise<CurrentUser>;
  /** Joins the team of an invitation link's code. */
  acceptTeamInvitation(code: string): Promise<void>;

  /** Whether the user holds the team permission, directly or through a permission that contains it. */
  hasPermission(team: TeamRef, permissionId: string): Promise<boolean>;
  /** Whether the user holds the project permission, directly or contained. */
  hasPermission(permissionId: string): Promise<boolean>;
  /** The user's permissions in a team (`recursive`, the default, includes the contained ones). */
  listPermissions(team: TeamRef, options?: { recursive?: boolean }): Promise<TeamPermission[]>;
  /** The user's project permissions. */
  listPermissions(options?: { recursive?: boolean }): Promise<ProjectPermission[]>;

  listContactChannels(): Promise<ContactChannel[]>;
  createContactChannel(channel: NewContactChannel): Promise<ContactChannel>;

  /** Every session of the user; `is_current_session` marks this one. */
  listSessions(): Promise<SessionInfo[]>;
  /** Ends another session (CannotDeleteCurrentSessionError for this one: use signOut). */
  revokeSession(sessionId: string): Promise<void>;

  /** The project must enable user API keys. */
  /** The user's quantity of a payments item (`ItemNotFoundError` for an item the catalogue lacks). */
  getItem(itemId: string): Promise<Schema<'Item'>>;
  /** The hosted checkout page's URL for buying a product for the user (`returnUrl` on a trusted domain). */
  createCheckoutUrl(productId: string, options?: { returnUrl?: string }): Promise<string>;
  listApiKeys(): Promise<UserApiKey[]>;
  createApiKey(key: ApiKeyCreate): Promise<UserApiKeyCreated>;

  /** Dashboard users (project `internal` only): the projects owned by the user's teams. */
  listOwnedProjects(): Promise<AdminProject[]>;
  /** Dashboard users (project `internal` only): a new project owned by one of the user's teams. */
  createProject(project: ProjectCreate): Promise<AdminProject>;
};

/** What a CurrentUser needs of its app besides the call. */
export type CurrentUserHost = {
  call: AppCall;
  signOut(): Promise<void>;
  forgetSession(): void;
  passkeyCeremonies: PasskeyCeremonies;
  passkeyRpId?: string;
};

const teamIdOf = (team: TeamRef) => (typeof team === 'string' ? team : team.id);
const recursiveQuery = (options?: { recursive?: boolean }): 'true' | 'false' => (options?.recursive === false ? 'false' : 'true');

export function currentUser(host: CurrentUserHost, data: ClientCurrentUserData): CurrentUser {
  const { call } = host;
  const snapshot = (next: unknown) => currentUser(host, next as ClientCurrentUserData);
  const update = async (changes: CurrentUserUpdate) => snapshot(await call(op.updateCurrentUser, { body: changes }));

  async function hasPermission(teamOrPermission: TeamRef, permissionId?: string): Promise<boolean> {
    if (permissionId === undefined) {
      const query = { user_id: 'me', permission_id: teamIdOf(teamOrPermission), recursive: 'true' } as const;
      return (await call(op.listProjectPermissions, { query })).items.length > 0;
    }
    const query = { team_id: teamIdOf(teamOrPermission), user_id: 'me', permission_id: permissionId, recursive: 'true' } as const;
    return (await call(op.listTeamPermissions, { query })).items.length > 0;
  }

  async function listPermissions(teamOrOptions?: TeamRef | { recursive?: boolean }, options?: { recursive?: boolean }) {
    if (teamOrOptions === undefined || (typeof teamOrOptions === 'object' && !('id' in teamOrOptions))) {
      return (await call(op.listProjectPermissions, { query: { user_id: 'me', recursive: recursiveQuery(teamOrOptions) } })).items;
    }
    const query = { team_id: teamIdOf(teamOrOptions), user_id: 'me', recursive: recursiveQuery(options) };
    return (await call(op.listTeamPermissions, { query })).items;
  }

  return {
    ...data,
    update,
    delete: async () => {
      await call(op.deleteCurrentUser);
      host.forgetSession();
    },
    updatePassword: async ({ oldPassword, newPassword }) => {
      await call(op.updatePassword, { body: { old_password: oldPassword, new_password: newPassword } });
    },
    setPassword: async (password) => {
      await call(op.setPassword, { body: { password } });
    },
    sendVerificationEmail: async ({ callbackUrl }) => {
      if (!data.primary_email) throw new Error('The user has no primary email to verify.');
      await call(op.sendPrimaryEmailVerificationCode, { body: { email: data.primary_email, callback_url: callbackUrl } });
    },
    signOut: () => host.signOut(),
    registerPasskey: async () => {
      const { options_json: options, code } = await call(op.initiatePasskeyRegistration);
      const rp = { ...options.rp, id: relyingPartyId(host.passkeyRpId) };
      const credential = await host.passkeyCeremonies.create({ ...options, rp });
      await call(op.registerPasskey, { body: { credential, code } });
    },
    createMfaRecoveryCodes: async () => (await call(op.createMfaRecoveryCodes)).recovery_codes,

    listTeams: async () => (await call(op.listTeams, { query: { user_id: 'me' } })).items.map((team) => clientTeam(call, team)),
    getTeam: async (teamId) => {
      const team = await orNull(call(op.getTeam, { params: { team_id: teamId } }), TeamNotFoundError);
      return team && clientTeam(call, team);
    },
    createTeam: async (team) => clientTeam(call, await call(op.createTeam, { body: { ...team, creator_user_id: 'me' } })),
    setSelectedTeam: (team) => update({ selected_team_id: team === null ? null : teamIdOf(team) }),
    acceptTeamInvitation: async (code) => {
      await call(op.acceptTeamInvitation, { body: { code } });
    },

    hasPermission: hasPermission as CurrentUser['hasPermission'],
    listPermissions: listPermissions as CurrentUser['listPermissions'],

    listContactChannels: async () =>
      (await call(op.listContactChannels, { query: { user_id: 'me' } })).items.map((channel) => contactChannel(call, channel)),
    createContactChannel: async (channel) =>
      contactChannel(call, await call(op.createContactChannel, { body: { ...channel, user_id: 'me', type: 'email' } })),

    listSessions: async () => (await call(op.listSessions, { query: { user_id: 'me' } })).items,
    revokeSession: async (sessionId) => {
      await call(op.deleteSession, { params: { session_id: sessionId }, query: { user_id: 'me' } });
    },

    getItem: (itemId) => call(op.getCustomerItem, { params: { customer_type: 'user', customer_id: data.id, item_id: itemId } }),
    createCheckoutUrl: async (productId, options = {}) =>
      (
        await call(op.createPurchaseUrl, {
          body: {
            customer_type: 'user',
            customer_id: data.id,
            product_id: productId,
            ...(options.returnUrl === undefined ? {} : { return_url: options.returnUrl }),
          },
        })
      ).url,

    listApiKeys: async () => (await call(op.listUserApiKeys, { query: { user_id: 'me' } })).items.map((key) => userApiKey(call, key)),
    createApiKey: async (key) => userApiKey(call, await call(op.createUserApiKey, { body: { ...key, user_id: 'me' } })),

    listOwnedProjects: async () => (await call(op.listInternalProjects)).items,
    createProject: (project) => call(op.createInternalProject, { body: project }),
  };
}
