import { type Kysely, sql } from 'kysely';

/**
 * Enterprise SSO: teams' SAML / OpenID Connect connections, the IdP accounts that signed in through
 * them (JIT links), the flows between authorize and the IdP's answer, the SAML assertion ids already
 * used (replay), and teams' email domains with their DNS verification.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sso_connection')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('team_id', 'uuid', (column) => column.notNull().references('team.id').onDelete('cascade'))
    .addColumn('protocol', 'text', (column) => column.notNull().check(sql`protocol in ('saml', 'oidc')`))
    .addColumn('display_name', 'text', (column) => column.notNull())
    .addColumn('enabled', 'boolean', (column) => column.notNull())
    // Protocol settings (SAML: IdP entity id, SSO URL, certificates; OIDC: issuer, client id, scope).
    .addColumn('settings', 'jsonb', (column) => column.notNull())
    // The SP's own key (SAML decryption) or the OIDC client secret, sealed with the at-rest cipher.
    .addColumn('sealed_secret', 'text', (column) => column.notNull())
    .addColumn('attribute_mapping', 'jsonb', (column) => column.notNull())
    .addColumn('idp_initiated_redirect_url', 'text')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('sso_connection_team_idx').on('sso_connection').columns(['project_id', 'team_id']).execute();

  await db.schema
    .createTable('sso_identity')
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('connection_id', 'uuid', (column) => column.notNull().references('sso_connection.id').onDelete('cascade'))
    .addColumn('subject', 'text', (column) => column.notNull())
    .addColumn('user_id', 'uuid', (column) => column.notNull().references('project_user.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('sso_identity_pk', ['connection_id', 'subject'])
    .execute();

  await db.schema
    .createTable('sso_flow')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('connection_id', 'uuid', (column) => column.notNull().references('sso_connection.id').onDelete('cascade'))
    .addColumn('data', 'jsonb', (column) => column.notNull())
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .execute();
  // For the expired-rows cleanup.
  await db.schema.createIndex('sso_flow_expires_idx').on('sso_flow').column('expires_at').execute();

  await db.schema
    .createTable('sso_used_assertion')
    .addColumn('connection_id', 'uuid', (column) => column.notNull().references('sso_connection.id').onDelete('cascade'))
    .addColumn('assertion_id', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'timestamptz', (column) => column.notNull())
    .addPrimaryKeyConstraint('sso_used_assertion_pk', ['connection_id', 'assertion_id'])
    .execute();
  await db.schema.createIndex('sso_used_assertion_expires_idx').on('sso_used_assertion').column('expires_at').execute();

  await db.schema
    .createTable('team_domain')
    .addColumn('id', 'uuid', (column) => column.primaryKey())
    .addColumn('project_id', 'text', (column) => column.notNull().references('project.id').onDelete('cascade'))
    .addColumn('team_id', 'uuid', (column) => column.notNull().references('team.id').onDelete('cascade'))
    .addColumn('domain', 'text', (column) => column.notNull())
    .addColumn('verification_token', 'text', (column) => column.notNull())
    .addColumn('enrolment_policy', 'text', (column) =>
      column.notNull().check(sql`enrolment_policy in ('automatic', 'suggestion', 'invitation_only')`),
    )
    .addColumn('verified_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (column) => column.notNull().defaultTo(sql`now()`))
    .execute();
  // A team claims a domain once; one team of a project holds it verified.
  await sql`create unique index team_domain_claim_idx on team_domain (team_id, domain)`.execute(db);
  await sql`create unique index team_domain_verified_idx on team_domain (project_id, domain) where verified_at is not null`.execute(db);
}
