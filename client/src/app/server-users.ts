import { AnonymousAuthenticationNotAllowedError, InvalidAccessTokenError, UserNotFoundError } from '../errors.ts';
import type { OperationBody } from '@gatehouse/protocol/operation-types';
import { type AppCall, definedOnly, orNull, queryBoolean } from './app-call.ts';
import type {
  ContactChannelData,
  CreatedSessionTokens,
  ServerUser,
  ServerUserCreate,
  ServerUserUpdate,
  SessionInfo,
  UserList,
} from './app-types.ts';
import * as op from '@gatehouse/protocol/operations';

export type ListUsersOptions = {
  /** Page size; without it every user is returned at once. */
  limit?: number;
  /** `pagination.next_cursor` of the previous page. */
  cursor?: string;
  orderBy?: 'signed_up_at';
  desc?: boolean;
  /** Case-insensitive part of a name or email, or an exact id. */
  query?: string;
  includeRestricted?: boolean;
  /** Implies includeRestricted. */
  includeAnonymous?: boolean;
  /** Needs includeAnonymous. */
  onlyAnonymous?: boolean;
};

export type ServerUsers = {
  /** A page of users (`pagination.next_cursor` for the next one); anonymous and restricted users only when asked for. */
  list(options?: ListUsersOptions): Promise<UserList>;
  /** null when there is no such user. */
  get(userId: string): Promise<ServerUser | null>;
  create(user: ServerUserCreate): Promise<ServerUser>;
  /** Setting or removing the password ends every session of the user. */
  update(userId: string, changes: ServerUserUpdate): Promise<ServerUser>;
  delete(userId: string): Promise<void>;
  /**
   * The user of an access token your backend received (e.g. from the `x-stack-access-token` header
   * or the session cookie); null when the token is invalid or expired.
   */
  getByAccessToken(accessToken: string, options?: { allowAnonymous?: boolean }): Promise<ServerUser | null>;
};

export type ServerSessions = {
  /** A new session of the user (default lifetime a year); hand the tokens to a client's TokenStore. */
  create(userId: string, options?: { expiresInMillis?: number; isImpersonation?: boolean }): Promise<CreatedSessionTokens>;
  /** A session that signs in as the user, shown as an impersonation in their session list. */
  impersonate(userId: string, options?: { expiresInMillis?: number }): Promise<CreatedSessionTokens>;
  list(userId: string): Promise<SessionInfo[]>;
  revoke(userId: string, sessionId: string): Promise<void>;
};

type ContactChannelCreate = Omit<OperationBody<'createContactChannel'>, 'type'>;
type ContactChannelUpdate = OperationBody<'updateContactChannel'>;

export type ServerContactChannels = {
  list(userId: string): Promise<ContactChannelData[]>;
  /** `is_verified` may be set by the server. */
  create(channel: ContactChannelCreate): Promise<ContactChannelData>;
  update(userId: string, channelId: string, changes: ContactChannelUpdate): Promise<ContactChannelData>;
  delete(userId: string, channelId: string): Promise<void>;
};

export function serverUsers(call: AppCall): ServerUsers {
  return {
    list: (options = {}) =>
      call(op.listUsers, {
        query: definedOnly({
          limit: options.limit,
          cursor: options.cursor,
          order_by: options.orderBy,
          desc: queryBoolean(options.desc),
          query: options.query,
          include_restricted: queryBoolean(options.includeRestricted),
          include_anonymous: queryBoolean(options.includeAnonymous),
          only_anonymous: queryBoolean(options.onlyAnonymous),
        }),
      }),
    get: (userId) => orNull(call(op.getUser, { params: { user_id: userId } }), UserNotFoundError),
    create: (user) => call(op.createUser, { body: user }),
    update: (userId, changes) => call(op.updateUser, { params: { user_id: userId }, body: changes }),
    delete: async (userId) => {
      await call(op.deleteUser, { params: { user_id: userId } });
    },
    getByAccessToken: (accessToken, options = {}) => {
      const headers: Record<string, string> = { 'x-stack-access-token': accessToken };
      if (options.allowAnonymous) headers['x-stack-allow-anonymous-user'] = 'true';
      const user = call(op.getCurrentUser, { headers }) as Promise<ServerUser>;
      return orNull(user, InvalidAccessTokenError, AnonymousAuthenticationNotAllowedError);
    },
  };
}

export function serverSessions(call: AppCall): ServerSessions {
  const create: ServerSessions['create'] = async (userId, options = {}) => {
    const body = { user_id: userId, expires_in_millis: options.expiresInMillis, is_impersonation: options.isImpersonation };
    const created = await call(op.createSession, { body: definedOnly(body) });
    return { accessToken: created.access_token, refreshToken: created.refresh_token };
  };
  return {
    create,
    impersonate: (userId, options = {}) => create(userId, { ...options, isImpersonation: true }),
    list: async (userId) => (await call(op.listSessions, { query: { user_id: userId } })).items,
    revoke: async (userId, sessionId) => {
      await call(op.deleteSession, { params: { session_id: sessionId }, query: { user_id: userId } });
    },
  };
}

export function serverContactChannels(call: AppCall): ServerContactChannels {
  return {
    list: async (userId) => (await call(op.listContactChannels, { query: { user_id: userId } })).items,
    create: (channel) => call(op.createContactChannel, { body: { ...channel, type: 'email' } }),
    update: (userId, channelId, changes) =>
      call(op.updateContactChannel, { params: { user_id: userId, contact_channel_id: channelId }, body: changes }),
    delete: async (userId, channelId) => {
      await call(op.deleteContactChannel, { params: { user_id: userId, contact_channel_id: channelId } });
    },
  };
}
