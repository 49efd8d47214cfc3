import type { ColumnType, Generated } from 'kysely';
import type { JsonColumn } from '../../../db/column-types.ts';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

/** An OAuth application (client) of a project; `client_secret` sealed, null for public clients. */
export interface OAuthApplicationTable {
  project_id: ProjectIdColumn;
  client_id: string;
  client_secret: string | null;
  name: string;
  type: 'confidential' | 'public';
  redirect_uris: JsonColumn;
  grant_types: JsonColumn;
  scopes: JsonColumn;
  logo_url: string | null;
  registered_dynamically: Generated<boolean>;
  created_at: Generated<Date>;
  /** Claim name → CEL expression (custom-claims checks it on save); `{}` when none. */
  custom_claims: ColumnType<unknown, string | undefined, string>;
}

/** One oidc-provider entity (authorization code, token, grant, interaction, session...) of a project. */
export interface OAuthProviderEntityTable {
  project_id: ProjectIdColumn;
  model: string;
  id: string;
  payload: JsonColumn;
  grant_id: string | null;
  uid: string | null;
  client_id: string | null;
  expires_at: Date | null;
  consumed_at: Date | null;
}

/** A project's ES256 signing key for ID tokens and JWT access tokens; the private JWK sealed. */
export interface OAuthProviderKeyTable {
  project_id: ProjectIdColumn;
  kid: string;
  private_jwk: string;
  created_at: Generated<Date>;
  retired_at: Date | null;
}

/** The scopes a user consented to for an application (remembered until revoked). */
export interface OAuthConsentTable {
  project_id: ProjectIdColumn;
  user_id: string;
  client_id: string;
  scopes: JsonColumn;
  updated_at: Generated<Date>;
}

export interface OAuthProviderSettingsTable {
  project_id: ProjectIdColumn;
  consent_page_url: string | null;
  allow_dynamic_registration: Generated<boolean>;
}

declare module '../../../db/schema.ts' {
  interface Database {
    oauth_application: OAuthApplicationTable;
    oauth_provider_entity: OAuthProviderEntityTable;
    oauth_provider_key: OAuthProviderKeyTable;
    oauth_consent: OAuthConsentTable;
    oauth_provider_settings: OAuthProviderSettingsTable;
  }
}
