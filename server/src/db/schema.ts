import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { JsonColumn as Json } from './column-types.ts';

/**
 * The database: one interface every table joins by declaration merging (`declare module` in the
 * `*.table.ts` file of the folder that owns it), so this file names no feature.
 */
export interface Database {
  server_secret: ServerSecretTable;
}

export interface ServerSecretTable {
  id: Generated<number>;
  secret: Buffer;
  created_at: Generated<Date>;
}

export interface ApiKeySetTable {
  id: string;
  project_id: string;
  description: string;
  created_at: Generated<Date>;
  expires_at: Date;
  manually_revoked_at: Date | null;
  publishable_client_key_hash: string | null;
  publishable_client_key_last_four: string | null;
  secret_server_key_hash: string | null;
  secret_server_key_last_four: string | null;
  super_secret_admin_key_hash: string | null;
  super_secret_admin_key_last_four: string | null;
}

export interface ContactChannelTable {
  id: string;
  project_id: string;
  user_id: string;
  type: Generated<string>;
  value: string;
  is_verified: Generated<boolean>;
  is_primary: Generated<boolean>;
  used_for_auth: Generated<boolean>;
  created_at: Generated<Date>;
}

export interface RefreshSessionTable {
  id: string;
  project_id: string;
  user_id: string;
  token_hash: string;
  created_at: Generated<Date>;
  expires_at: Date;
  last_used_at: Generated<Date>;
  last_used_ip: string | null;
  is_impersonation: Generated<boolean>;
}

/** A refresh token replaced by rotation: honoured during the grace window, reuse afterwards. */
export interface ReplacedRefreshTokenTable {
  token_hash: string;
  session_id: string;
  replaced_at: Generated<Date>;
}

export interface VerificationCodeTable {
  id: string;
  project_id: string;
  purpose: string;
  /** The last 39 characters of the code; identifies the row an OTP attempt is checked against. */
  nonce: string;
  code_hash: string;
  data: ColumnType<Record<string, unknown>, string, string>;
  attempts: Generated<number>;
  created_at: Generated<Date>;
  expires_at: Date;
  used_at: Date | null;
}

export interface EmailOutboxTable {
  id: string;
  project_id: string;
  to_address: string;
  kind: string;
  subject: string;
  html: string;
  text: string;
  created_at: Generated<Date>;
  sent_at: Date | null;
  error: string | null;
}

export interface EventTable {
  id: Generated<string>;
  project_id: string;
  type: string;
  data: ColumnType<unknown, string, string>;
  created_at: Generated<Date>;
}

export interface TeamTable {
  id: string;
  project_id: string;
  display_name: string;
  profile_image_url: string | null;
  client_metadata: Json;
  client_read_only_metadata: Json;
  server_metadata: Json;
  created_at: Generated<Date>;
}

/** A membership, carrying the member's team profile (separate from the user's own name and image). */
export interface TeamMemberTable {
  team_id: string;
  user_id: string;
  project_id: string;
  display_name: string | null;
  profile_image_url: string | null;
  created_at: Generated<Date>;
}

export interface PermissionDefinitionTable {
  project_id: string;
  scope: 'team' | 'project';
  id: string;
  description: string | null;
  contained_ids: ColumnType<string[], string[] | undefined, string[]>;
}

export interface TeamPermissionGrantTable {
  project_id: string;
  team_id: string;
  user_id: string;
  permission_id: string;
}

export interface ProjectPermissionGrantTable {
  project_id: string;
  user_id: string;
  permission_id: string;
}

/** Per permission, every permission it implies (itself included); rebuilt on every definition write. */
export interface PermissionClosureTable {
  project_id: string;
  scope: 'team' | 'project';
  id: string;
  implied_ids: string[];
}

/** Bumped with every closure rebuild of a project scope (migration 0018); absent means 0. */
export interface PermissionGraphVersionTable {
  project_id: string;
  scope: 'team' | 'project';
  version: ColumnType<string, string | number, string | number>;
}

export interface EndUserApiKeyTable {
  id: string;
  project_id: string;
  type: 'user' | 'team';
  user_id: string | null;
  team_id: string | null;
  description: string;
  is_public: Generated<boolean>;
  created_at: Generated<Date>;
  expires_at: Date | null;
  manually_revoked_at: Date | null;
  key_hash: string;
  last_four: string;
}

/** A user's linked account at an OAuth provider (the API's OAuthProvider). */
export interface OAuthAccountTable {
  id: string;
  project_id: string;
  user_id: string;
  provider_config_id: string;
  provider_type: string;
  account_id: string;
  email: string | null;
  allow_sign_in: boolean;
  allow_connected_accounts: boolean;
  created_at: Generated<Date>;
}

/** A provider access or refresh token of a linked account, sealed (see oauth/token-sealing.ts). */
export interface OAuthProviderTokenTable {
  id: string;
  oauth_account_id: string;
  kind: 'access' | 'refresh';
  sealed_value: string;
  scopes: string[];
  expires_at: Date | null;
  is_valid: Generated<boolean>;
  created_at: Generated<Date>;
}

/** An OAuth round trip between authorize and callback, keyed by the state sent to the provider. */
export interface OAuthFlowTable {
  inner_state: string;
  project_id: string;
  provider_config_id: string;
  data: ColumnType<Record<string, unknown>, string, string>;
  created_at: Generated<Date>;
  expires_at: Date;
}

/** An authorization code the callback gave the app, exchanged once at the token endpoint (PKCE). */
export interface OAuthAuthorizationCodeTable {
  code_hash: string;
  project_id: string;
  user_id: string;
  redirect_uri: string;
  code_challenge: string;
  is_new_user: boolean;
  after_callback_redirect_url: string | null;
  expires_at: Date;
  used_at: Date | null;
}

/** A WebAuthn credential; ids and user handles base64url as the browser sends them, the rp id a hostname. */
export interface PasskeyTable {
  id: string;
  project_id: string;
  user_id: string;
  credential_id: string;
  /** The COSE public key from the attestation. */
  public_key: Buffer;
  /** The authenticator's signature counter (0 for authenticators without one); int8, which pg reads as a string. */
  counter: ColumnType<string | number | bigint, number | undefined, number>;
  transports: ColumnType<string[], string | undefined, string>;
  user_handle: string;
  rp_id: string;
  device_type: string;
  backed_up: boolean;
  created_at: Generated<Date>;
  last_used_at: Date | null;
}

/** A single-use MFA recovery code, as a digest salted with the user id (see mfa/recovery-codes.ts). */
export interface MfaRecoveryCodeTable {
  id: string;
  project_id: string;
  user_id: string;
  code_hash: string;
  created_at: Generated<Date>;
  used_at: Date | null;
}

/** Per user with TOTP: the last accepted time step (no code twice) and the window of wrong attempts. */
export interface UserMfaStateTable {
  user_id: string;
  last_totp_step: number | null;
  failed_attempts: Generated<number>;
  failures_since: Date | null;
}

/** A CLI login (endpoints.md §9): codes as digests; `user_id` is set when a browser user completes it. */
export interface CliLoginAttemptTable {
  id: string;
  project_id: string;
  polling_code_hash: string;
  login_code_hash: string;
  anon_session_id: string | null;
  user_id: string | null;
  created_at: Generated<Date>;
  expires_at: Date;
  completed_at: Date | null;
  used_at: Date | null;
}

/** A user's choice for one email notification category (categories are fixed in code). */
export interface NotificationPreferenceTable {
  project_id: string;
  user_id: string;
  notification_category_id: string;
  enabled: boolean;
  updated_at: Generated<Date>;
}

/** Users per sign-up method and country ('' for none), kept by triggers on project_user (migration 0015). */
export interface UserMetricsTotalTable {
  project_id: string;
  is_anonymous: boolean;
  sign_up_method: string;
  country_code: string;
  /** One of 16 per counter, picked by the writing connection (spreads the row locks). */
  shard: number;
  users: number;
}

/** Per UTC day: sign-ups, and users whose latest activity is that day; kept by triggers (migration 0015). */
export interface UserMetricsDailyTable {
  project_id: string;
  day: ColumnType<string, string, string>;
  is_anonymous: boolean;
  shard: number;
  sign_ups: number;
  last_active: number;
}

export interface Database {
  api_key_set: ApiKeySetTable;
  contact_channel: ContactChannelTable;
  refresh_session: RefreshSessionTable;
  replaced_refresh_token: ReplacedRefreshTokenTable;
  verification_code: VerificationCodeTable;
  email_outbox: EmailOutboxTable;
  event: EventTable;
  team: TeamTable;
  team_member: TeamMemberTable;
  permission_definition: PermissionDefinitionTable;
  team_permission_grant: TeamPermissionGrantTable;
  project_permission_grant: ProjectPermissionGrantTable;
  permission_closure: PermissionClosureTable;
  permission_graph_version: PermissionGraphVersionTable;
  end_user_api_key: EndUserApiKeyTable;
  mfa_recovery_code: MfaRecoveryCodeTable;
  user_mfa_state: UserMfaStateTable;
  cli_login_attempt: CliLoginAttemptTable;
  passkey: PasskeyTable;
  oauth_account: OAuthAccountTable;
  oauth_provider_token: OAuthProviderTokenTable;
  oauth_flow: OAuthFlowTable;
  oauth_authorization_code: OAuthAuthorizationCodeTable;
  notification_preference: NotificationPreferenceTable;
  user_metrics_total: UserMetricsTotalTable;
  user_metrics_daily: UserMetricsDailyTable;
}

export type ContactChannelRow = Selectable<ContactChannelTable>;
export type RefreshSessionRow = Selectable<RefreshSessionTable>;
export type VerificationCodeRow = Selectable<VerificationCodeTable>;
export type EmailOutboxRow = Selectable<EmailOutboxTable>;

export type ApiKeySetRow = Selectable<ApiKeySetTable>;
export type NewApiKeySetRow = Insertable<ApiKeySetTable>;
export type TeamRow = Selectable<TeamTable>;
export type TeamMemberRow = Selectable<TeamMemberTable>;
export type PermissionDefinitionRow = Selectable<PermissionDefinitionTable>;
export type EndUserApiKeyRow = Selectable<EndUserApiKeyTable>;
export type PasskeyRow = Selectable<PasskeyTable>;
export type OAuthAccountRow = Selectable<OAuthAccountTable>;
export type OAuthProviderTokenRow = Selectable<OAuthProviderTokenTable>;
