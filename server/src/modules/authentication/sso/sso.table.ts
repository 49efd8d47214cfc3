import type { ColumnType, Generated, Selectable } from 'kysely';
import type { ProjectIdColumn } from '../../../tenancy/project.table.ts';

type Json<T> = ColumnType<T, string, string>;

export type SsoProtocol = 'saml' | 'oidc';
export type EnrolmentPolicy = 'automatic' | 'suggestion' | 'invitation_only';

/** An IdP signing certificate (PEM); a replaced one keeps working until `retiresAt` (rotation overlap). */
export type IdpCertificate = { pem: string; fingerprintSha256: string; retiresAt: string | null };

export type SamlSettings = {
  idpEntityId: string;
  idpSsoUrl: string;
  certificates: IdpCertificate[];
  allowIdpInitiated: boolean;
  /** The SP's certificate for encrypted assertions (its private key is the connection's sealed secret). */
  spCertificatePem: string;
};
export type OidcSettings = { issuer: string; clientId: string; scope: string };

export type AttributeMapping = {
  email?: string;
  name?: string;
  groups?: string;
  group_permissions?: Record<string, string[]>;
};

export interface SsoConnectionTable {
  id: string;
  project_id: ProjectIdColumn;
  team_id: string;
  protocol: SsoProtocol;
  display_name: string;
  enabled: boolean;
  settings: Json<SamlSettings | OidcSettings>;
  sealed_secret: string;
  attribute_mapping: Json<AttributeMapping>;
  idp_initiated_redirect_url: string | null;
  created_at: Generated<Date>;
}

/** The IdP account (connection, subject) a user signs in with. */
export interface SsoIdentityTable {
  project_id: ProjectIdColumn;
  connection_id: string;
  subject: string;
  user_id: string;
  created_at: Generated<Date>;
}

/** What authorize keeps until the IdP answers (the app's PKCE pair and redirect, the SAML request id or OIDC verifier). */
export type SsoFlowData = {
  redirectUri: string;
  state: string;
  codeChallenge: string;
  errorRedirectUrl: string | null;
  afterCallbackRedirectUrl: string | null;
  samlRequestId?: string;
  oidcCodeVerifier?: string;
  oidcNonce?: string;
};

export interface SsoFlowTable {
  id: string;
  project_id: ProjectIdColumn;
  connection_id: string;
  data: Json<SsoFlowData>;
  expires_at: Date;
}

export interface SsoUsedAssertionTable {
  connection_id: string;
  assertion_id: string;
  expires_at: Date;
}

export interface TeamDomainTable {
  id: string;
  project_id: ProjectIdColumn;
  team_id: string;
  domain: string;
  verification_token: string;
  enrolment_policy: EnrolmentPolicy;
  verified_at: Date | null;
  created_at: Generated<Date>;
}

export type SsoConnectionRow = Selectable<SsoConnectionTable>;
export type TeamDomainRow = Selectable<TeamDomainTable>;

declare module '../../../db/schema.ts' {
  interface Database {
    sso_connection: SsoConnectionTable;
    sso_identity: SsoIdentityTable;
    sso_flow: SsoFlowTable;
    sso_used_assertion: SsoUsedAssertionTable;
    team_domain: TeamDomainTable;
  }
}
