import { randomBytes } from 'node:crypto';
import { InvalidOAuthApplicationError, OAuthApplicationNotFoundError } from '@gatehouse/protocol/errors';
import type { Schema } from '@gatehouse/protocol/operation-types';
import type { DbHandle } from '../../../db/handle.ts';
import type { AtRestCipher } from '../../../lib/at-rest-cipher.ts';
import type { Project } from '../../../tenancy/project.ts';
import {
  deleteApplication,
  findSettings,
  insertApplication,
  listApplications,
  type OAuthApplicationRow,
  updateApplication,
  upsertSettings,
} from './oauth-provider.repository.ts';
import { secretPlace } from './provider-adapter.ts';
import type { ProviderRegistry } from './provider-registry.ts';
import { oidcScopes } from './scopes.ts';
import { rotateSigningKey } from './signing-keys.ts';
import { assertValidClaimsTemplate } from '../custom-claims/index.ts';

type Application = Schema<'OAuthApplication'>;
type GrantType = Application['grant_types'][number];

export function toApplication(row: OAuthApplicationRow): Application {
  return {
    client_id: row.client_id,
    name: row.name,
    type: row.type,
    redirect_uris: row.redirect_uris as string[],
    grant_types: row.grant_types as GrantType[],
    scopes: row.scopes as string[],
    logo_url: row.logo_url,
    registered_dynamically: row.registered_dynamically,
    created_at_millis: row.created_at.getTime(),
    custom_claims: (row.custom_claims ?? {}) as Record<string, string>,
  };
}

/** Refuses applications oidc-provider could never serve, with a reason the owner can act on. */
function checkApplication(type: Application['type'], grantTypes: readonly string[], redirectUris: readonly string[]): void {
  if (type === 'public' && grantTypes.includes('client_credentials')) {
    throw new InvalidOAuthApplicationError({
      reason: 'client_credentials needs a confidential application (a public one keeps no secret).',
    });
  }
  if (grantTypes.includes('authorization_code') && redirectUris.length === 0) {
    throw new InvalidOAuthApplicationError({ reason: 'the authorization_code grant needs at least one redirect URI.' });
  }
  for (const uri of redirectUris) {
    const url = new URL(uri);
    if (url.hash) throw new InvalidOAuthApplicationError({ reason: `a redirect URI may not have a fragment: ${uri}` });
    if (!['http:', 'https:'].includes(url.protocol) && !/^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol)) {
      throw new InvalidOAuthApplicationError({ reason: `a redirect URI must be http(s) or a reverse-domain app scheme: ${uri}` });
    }
  }
}

/** The owner's side of the provider: applications, settings, key rotation. */
export class OAuthApplicationsService {
  constructor(
    private readonly db: DbHandle,
    private readonly cipher: AtRestCipher,
    private readonly registry: ProviderRegistry,
  ) {}

  async list(project: Project): Promise<Application[]> {
    return (await listApplications(this.db, project.id)).map(toApplication);
  }

  async create(project: Project, body: Schema<'OAuthApplicationCreate'>): Promise<Schema<'OAuthApplicationWithSecret'>> {
    const grantTypes = body.grant_types ?? ['authorization_code', 'refresh_token'];
    const redirectUris = body.redirect_uris ?? [];
    checkApplication(body.type, grantTypes, redirectUris);
    if (body.custom_claims !== undefined) assertValidClaimsTemplate(body.custom_claims);
    const clientId = `oac_${randomBytes(16).toString('base64url')}`;
    const secret = body.type === 'confidential' ? `ocs_${randomBytes(32).toString('base64url')}` : null;
    const row = await insertApplication(this.db, project.id, {
      client_id: clientId,
      client_secret: secret ? this.cipher.seal(secret, secretPlace(project.id, clientId)) : null,
      name: body.name,
      type: body.type,
      redirect_uris: redirectUris,
      grant_types: grantTypes,
      scopes: body.scopes ?? [...oidcScopes],
      logo_url: body.logo_url ?? null,
      custom_claims: body.custom_claims ?? {},
    });
    // The provider knows the scopes of the project's applications: the new ones too from now on.
    await this.registry.changed(project.id);
    return { ...toApplication(row), client_secret: secret };
  }

  async update(project: Project, clientId: string, body: Schema<'OAuthApplicationUpdate'>): Promise<Application> {
    if (body.custom_claims !== undefined) assertValidClaimsTemplate(body.custom_claims);
    if (body.redirect_uris) {
      const current = (await listApplications(this.db, project.id)).find((row) => row.client_id === clientId);
      if (current) checkApplication(current.type, current.grant_types as string[], body.redirect_uris);
    }
    const row = await updateApplication(this.db, project.id, clientId, body);
    if (!row) throw new OAuthApplicationNotFoundError({ client_id: clientId });
    await this.registry.changed(project.id);
    return toApplication(row);
  }

  async delete(project: Project, clientId: string): Promise<void> {
    if (!(await deleteApplication(this.db, project.id, clientId))) throw new OAuthApplicationNotFoundError({ client_id: clientId });
    await this.registry.changed(project.id);
  }

  async settings(project: Project): Promise<Schema<'OAuthProviderSettings'>> {
    return this.updateSettings(project, {});
  }

  async updateSettings(project: Project, body: Schema<'OAuthProviderSettingsUpdate'>): Promise<Schema<'OAuthProviderSettings'>> {
    const { rotate_signing_key: rotate, ...values } = body;
    if (rotate) await rotateSigningKey(this.db, this.cipher, project.id);
    const settings =
      Object.keys(values).length > 0 ? await upsertSettings(this.db, project.id, values) : await findSettings(this.db, project.id);
    await this.registry.changed(project.id);
    return {
      issuer: this.registry.issuerOf(project.id),
      consent_page_url: await this.registry.consentPageUrl(project),
      allow_dynamic_registration: settings.allow_dynamic_registration,
    };
  }
}
