import type { ColumnType, Generated, Selectable } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** A user's linked account at an OAuth provider (the API's OAuthProvider). */
export interface OAuthAccountTable {
  id: string;
  project_id: ProjectIdColumn;
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
  project_id: ProjectIdColumn;
  provider_config_id: string;
  data: ColumnType<Record<string, unknown>, string, string>;
  created_at: Generated<Date>;
  expires_at: Date;
}

/** An authorization code the callback gave the app, exchanged once at the token endpoint (PKCE). */
export interface OAuthAuthorizationCodeTable {
  code_hash: string;
  project_id: ProjectIdColumn;
  user_id: string;
  redirect_uri: string;
  code_challenge: string;
  is_new_user: boolean;
  after_callback_redirect_url: string | null;
  expires_at: Date;
  used_at: Date | null;
}

export type OAuthAccountRow = Selectable<OAuthAccountTable>;
export type OAuthProviderTokenRow = Selectable<OAuthProviderTokenTable>;

declare module '../../../db/schema.ts' {
  interface Database {
    oauth_account: OAuthAccountTable;
    oauth_provider_token: OAuthProviderTokenTable;
    oauth_flow: OAuthFlowTable;
    oauth_authorization_code: OAuthAuthorizationCodeTable;
  }
}
