import { randomUUID } from 'node:crypto';
import type { Schema } from '@gatehouse/protocol/operation-types';
import { SsoConnectionConfigInvalidError, SsoConnectionNotFoundError } from '@gatehouse/protocol/errors';
import { type DbHandle, inTransaction } from '../../../db/handle.ts';
import type { AtRestCipher } from '../../../lib/at-rest-cipher.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { AuditLog } from '../../administration/audit-log/index.ts';
import { assertTrustedUrl } from '../../platform/projects/index.ts';
import type { PermissionService } from '../../organisations/permissions/index.ts';
import type { TeamService } from '../../organisations/teams/index.ts';
import { type IdpMetadata, readIdpMetadata } from './idp-metadata.ts';
import { fetchIdpMetadata } from './idp-metadata-url.ts';
import { certificateFingerprint, createCertifiedKeyPair } from './key-pair.ts';
import { oidcRedirectUri } from './oidc-relying-party.ts';
import { samlEndpoints } from './saml-service-provider.ts';
import type { SsoSettings } from './sso-settings.ts';
import { deleteConnection, findConnection, insertConnection, listConnections, updateConnection } from './sso.repository.ts';
import type { AttributeMapping, IdpCertificate, OidcSettings, SamlSettings, SsoConnectionRow } from './sso.table.ts';

type Create = Schema<'SsoConnectionCreate'>;
type Update = Schema<'SsoConnectionUpdate'>;
type SamlInput = Schema<'SsoSamlSettingsInput'>;
type OidcInput = Schema<'SsoOidcSettingsInput'>;

export const sealPlace = (connectionId: string) => `sso_connection:${connectionId}`;
const defaultOverlapSeconds = 86_400;
const defaultOidcScope = 'openid email profile';

const invalid = (reason: string) =>
  new SsoConnectionConfigInvalidError({ reason }, `The SSO connection's settings are not valid: ${reason}.`);

/** Teams' SSO connections: their settings (IdP metadata read, secrets sealed), certificate rotation, the API's view. */
export class SsoConnectionService {
  constructor(
    private readonly db: DbHandle,
    private readonly teams: TeamService,
    private readonly cipher: AtRestCipher,
    private readonly publicUrl: string,
    private readonly auditLog: AuditLog,
    private readonly permissions: PermissionService,
    private readonly settings: SsoSettings,
  ) {}

  async create(project: Project, body: Create): Promise<SsoConnectionRow> {
    await this.teams.get(project.id, body.team_id);
    await this.assertMappingGrantable(project.id, body.attribute_mapping);
    const id = randomUUID();
    if (body.idp_initiated_redirect_url) assertTrustedUrl(project, body.idp_initiated_redirect_url);
    let settings: SamlSettings | OidcSettings;
    let secret: string;
    if (body.protocol === 'saml') {
      if (!body.saml || body.oidc) throw invalid('a SAML connection takes `saml` settings (and no `oidc`)');
      const keyPair = await createCertifiedKeyPair(`Gatehouse SSO ${id}`);
      settings = {
        ...this.samlSettings(body.saml, await this.idpMetadata(project, body.saml), []),
        spCertificatePem: keyPair.certificatePem,
      };
      secret = keyPair.privateKeyPem;
    } else {
      if (!body.oidc || body.saml) throw invalid('an OpenID connection takes `oidc` settings (and no `saml`)');
      settings = oidcSettings(body.oidc);
      secret = body.oidc.client_secret;
    }
    const insert = {
      id,
      team_id: body.team_id,
      protocol: body.protocol,
      display_name: body.display_name,
      enabled: body.enabled ?? true,
      settings: JSON.stringify(settings),
      sealed_secret: this.cipher.seal(secret, sealPlace(id)),
      attribute_mapping: JSON.stringify(body.attribute_mapping ?? {}),
      idp_initiated_redirect_url: body.idp_initiated_redirect_url ?? null,
    };
    return inTransaction(this.db, async (trx) => {
      const row = await insertConnection(trx, project.id, insert);
      await this.audit(trx, project.id, 'sso.connection_created', row);
      return row;
    });
  }

  /** Its audit entry, in the change's transaction (the IdP settings are named, never their secrets). */
  private audit(trx: DbHandle, projectId: ProjectId, action: string, row: { id: string; team_id: string }, details = {}) {
    return this.auditLog.record(trx, projectId, { action, teamId: row.team_id, target: { type: 'sso_connection', id: row.id }, details });
  }

  async update(project: Project, id: string, body: Update): Promise<SsoConnectionRow> {
    const row = await this.get(project.id, id);
    if ((body.saml && row.protocol !== 'saml') || (body.oidc && row.protocol !== 'oidc'))
      throw invalid(`this connection is ${row.protocol}; its settings are \`${row.protocol}\``);
    if (body.idp_initiated_redirect_url) assertTrustedUrl(project, body.idp_initiated_redirect_url);
    await this.assertMappingGrantable(project.id, body.attribute_mapping);
    const changes: Parameters<typeof updateConnection>[3] = {};
    if (body.display_name !== undefined) changes.display_name = body.display_name;
    if (body.enabled !== undefined) changes.enabled = body.enabled;
    if (body.attribute_mapping !== undefined) changes.attribute_mapping = JSON.stringify(body.attribute_mapping);
    if (body.idp_initiated_redirect_url !== undefined) changes.idp_initiated_redirect_url = body.idp_initiated_redirect_url;
    if (body.saml) {
      const current = row.settings as SamlSettings;
      changes.settings = JSON.stringify({
        ...this.samlSettings(body.saml, await this.idpMetadata(project, body.saml), current.certificates),
        spCertificatePem: current.spCertificatePem,
      });
    }
    if (body.oidc) {
      changes.settings = JSON.stringify(oidcSettings(body.oidc));
      changes.sealed_secret = this.cipher.seal(body.oidc.client_secret, sealPlace(id));
    }
    if (Object.keys(changes).length === 0) return row;
    return inTransaction(this.db, async (trx) => {
      const updated = await updateConnection(trx, project.id, id, changes);
      if (!updated) throw new SsoConnectionNotFoundError({ connection_id: id });
      await this.audit(trx, project.id, 'sso.connection_updated', updated, { changed: Object.keys(changes).sort() });
      return updated;
    });
  }

  /**
   * A group may only map to team permissions the project defines: a mapping to anything else would be found out
   * only when someone of that group signs in. (A permission deleted later is skipped at sign-in.)
   */
  private async assertMappingGrantable(projectId: ProjectId, mapping: AttributeMapping | undefined): Promise<void> {
    const table = mapping?.group_permissions ?? {};
    const missing = await this.permissions.undefinedTeamPermissions(projectId, Object.values(table).flat());
    const [first] = missing;
    if (first === undefined) return;
    const group = Object.keys(table).find((name) => table[name]?.includes(first));
    throw invalid(`the group ${JSON.stringify(group)} maps to ${JSON.stringify(first)}, which is not a team permission of this project`);
  }

  async get(projectId: ProjectId, id: string): Promise<SsoConnectionRow> {
    const row = await findConnection(this.db, projectId, id);
    if (!row) throw new SsoConnectionNotFoundError({ connection_id: id });
    return row;
  }

  list(projectId: ProjectId, teamId?: string): Promise<SsoConnectionRow[]> {
    return listConnections(this.db, projectId, teamId);
  }

  async delete(projectId: ProjectId, id: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      const deleted = await deleteConnection(trx, projectId, id);
      if (!deleted) throw new SsoConnectionNotFoundError({ connection_id: id });
      await this.audit(trx, projectId, 'sso.connection_deleted', { id, team_id: deleted.team_id });
    });
  }

  /**
   * The IdP metadata of SAML settings: the XML given, or read from its URL (before any transaction opens,
   * through the outbound guard with the project's localhost allowance).
   */
  private async idpMetadata(project: Project, input: SamlInput): Promise<IdpMetadata> {
    const { idp_metadata_xml: xml, idp_metadata_url: url } = input;
    if ((xml === undefined) === (url === undefined))
      throw invalid('SAML settings take exactly one of `idp_metadata_xml` and `idp_metadata_url`');
    if (xml !== undefined) return readIdpMetadata(xml);
    return fetchIdpMetadata(
      url as string,
      { allowLoopback: project.config.domains.allowLocalhost },
      {
        resolve: this.settings.resolveHost,
        timeoutMillis: this.settings.metadataTimeoutMillis,
      },
    );
  }

  /**
   * SAML settings from metadata. Certificates the new metadata drops stay trusted for the overlap
   * (a rotation: the IdP may still sign with the old key for a while); ones it lists again are current.
   */
  private samlSettings(input: SamlInput, metadata: IdpMetadata, previous: IdpCertificate[]): Omit<SamlSettings, 'spCertificatePem'> {
    const now = Date.now();
    const overlapMillis = (input.certificate_overlap_seconds ?? defaultOverlapSeconds) * 1000;
    const current: IdpCertificate[] = metadata.signingCertificates.map((pem) => ({
      pem,
      fingerprintSha256: certificateFingerprint(pem),
      retiresAt: null,
    }));
    const fingerprints = new Set(current.map((certificate) => certificate.fingerprintSha256));
    const retiring = previous
      .filter((certificate) => !fingerprints.has(certificate.fingerprintSha256))
      .map((certificate) => ({ ...certificate, retiresAt: certificate.retiresAt ?? new Date(now + overlapMillis).toISOString() }))
      .filter((certificate) => new Date(certificate.retiresAt).getTime() > now);
    return {
      idpEntityId: metadata.entityId,
      idpSsoUrl: metadata.ssoUrl,
      certificates: [...current, ...retiring],
      allowIdpInitiated: input.allow_idp_initiated ?? false,
    };
  }

  /** The API's view of a connection (no secret, no SP private key). */
  toView(row: SsoConnectionRow): Schema<'SsoConnection'> {
    const base = {
      id: row.id,
      team_id: row.team_id,
      protocol: row.protocol,
      display_name: row.display_name,
      enabled: row.enabled,
      attribute_mapping: row.attribute_mapping,
      idp_initiated_redirect_url: row.idp_initiated_redirect_url,
      created_at_millis: row.created_at.getTime(),
    };
    if (row.protocol === 'saml') {
      const settings = row.settings as SamlSettings;
      const endpoints = samlEndpoints(this.publicUrl, row.id);
      return {
        ...base,
        oidc: null,
        saml: {
          idp_entity_id: settings.idpEntityId,
          idp_sso_url: settings.idpSsoUrl,
          allow_idp_initiated: settings.allowIdpInitiated,
          certificates: settings.certificates.map((certificate) => ({
            fingerprint_sha256: certificate.fingerprintSha256,
            retires_at: certificate.retiresAt,
          })),
          sp_entity_id: endpoints.entityId,
          sp_acs_url: endpoints.acsUrl,
          sp_metadata_url: endpoints.metadataUrl,
        },
      };
    }
    const settings = row.settings as OidcSettings;
    return {
      ...base,
      saml: null,
      oidc: {
        issuer: settings.issuer,
        client_id: settings.clientId,
        scope: settings.scope,
        redirect_uri: oidcRedirectUri(this.publicUrl, row.id),
      },
    };
  }
}

function oidcSettings(input: OidcInput): OidcSettings {
  return { issuer: input.issuer, clientId: input.client_id, scope: input.scope ?? defaultOidcScope };
}
