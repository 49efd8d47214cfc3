import type { OperationBody } from '@gatehouse/protocol/operation-types';
import type { AppCall } from './app-call.ts';
import type { ContactChannelData, TeamApiKeyCreatedData, TeamApiKeyData, UserApiKeyCreatedData, UserApiKeyData } from './app-types.ts';
import * as op from '@gatehouse/protocol/operations';

/** Fields of a contact channel a client may change. */
export type ContactChannelUpdate = Pick<OperationBody<'updateContactChannel'>, 'value' | 'used_for_auth' | 'is_primary'>;

/** One of the user's contact channels (an email address), with what can be done to it. */
export type ContactChannel = ContactChannelData & {
  update(changes: ContactChannelUpdate): Promise<ContactChannel>;
  delete(): Promise<void>;
  /** Emails a verification link: `callbackUrl?code=…`; the page then calls `app.verifyEmail(code)`. */
  sendVerificationEmail(options: { callbackUrl: string }): Promise<void>;
};

export function contactChannel(call: AppCall, data: ContactChannelData): ContactChannel {
  const params = { user_id: data.user_id, contact_channel_id: data.id };
  return {
    ...data,
    update: async (changes) => contactChannel(call, await call(op.updateContactChannel, { params, body: changes })),
    delete: async () => {
      await call(op.deleteContactChannel, { params });
    },
    sendVerificationEmail: async ({ callbackUrl }) => {
      await call(op.sendContactChannelVerificationCode, { params, body: { callback_url: callbackUrl } });
    },
  };
}

/** Revocation is the only change besides the description (the key itself never changes). */
type ApiKeyMethods<Key> = {
  revoke(): Promise<Key>;
  update(changes: { description?: string }): Promise<Key>;
};

/** A user API key as listed (`value.last_four` only). */
export interface UserApiKey extends UserApiKeyData, ApiKeyMethods<UserApiKey> {}
/** A user API key just created: `value` is the full secret, shown this once. */
export interface UserApiKeyCreated extends UserApiKeyCreatedData, ApiKeyMethods<UserApiKey> {}
export interface TeamApiKey extends TeamApiKeyData, ApiKeyMethods<TeamApiKey> {}
export interface TeamApiKeyCreated extends TeamApiKeyCreatedData, ApiKeyMethods<TeamApiKey> {}

export function userApiKey<Data extends UserApiKeyData | UserApiKeyCreatedData>(
  call: AppCall,
  data: Data,
): Data & ApiKeyMethods<UserApiKey> {
  const input = { params: { api_key_id: data.id }, query: { user_id: data.user_id } };
  const update = async (body: { description?: string; revoked?: true }) =>
    userApiKey(call, await call(op.updateUserApiKey, { ...input, body }));
  return { ...data, revoke: () => update({ revoked: true }), update: (changes) => update(changes) };
}

export function teamApiKey<Data extends TeamApiKeyData | TeamApiKeyCreatedData>(
  call: AppCall,
  data: Data,
): Data & ApiKeyMethods<TeamApiKey> {
  const input = { params: { api_key_id: data.id }, query: { team_id: data.team_id } };
  const update = async (body: { description?: string; revoked?: true }) =>
    teamApiKey(call, await call(op.updateTeamApiKey, { ...input, body }));
  return { ...data, revoke: () => update({ revoked: true }), update: (changes) => update(changes) };
}
