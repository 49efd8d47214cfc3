import { SsoConnectionNotFoundError, SsoResponseInvalidError } from '@gatehouse/protocol/errors';
import { generateServiceProviderMetadata } from '@node-saml/node-saml';
import * as client from 'openid-client';
import type { DbHandle } from '../../../db/handle.ts';
import type { AtRestCipher } from '../../../lib/at-rest-cipher.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import { type OAuthFlowService, errorRedirect, trustedRedirectUri } from '../oauth/index.ts';
import type { AuditLog } from '../../administration/audit-log/index.ts';
import type { ProjectService } from '../../platform/projects/index.ts';
import { assertTrustedUrl } from '../../platform/projects/index.ts';
import { authorizationUrl, discoverProvider, exchangeCode, oidcRedirectUri, oidcRefusal } from './oidc-relying-party.ts';
import {
  classifySamlFailure,
  newRequestId,
  personOf,
  readEnvelope,
  type SamlEnvelope,
  samlEndpoints,
  samlRefusal,
  serviceProvider,
} from './saml-service-provider.ts';
import type { SsoAccounts, SsoPerson } from './sso-accounts.ts';
import { sealPlace } from './sso-connection.service.ts';
import type { SsoSettings } from './sso-settings.ts';
import { findConnectionInAnyProject, findLiveFlow, findUsedAssertion, insertFlow, recordAssertion, takeFlow } from './sso.repository.ts';
import type { OidcSettings, SamlSettings, SsoConnectionRow, SsoFlowData } from './sso.table.ts';

/** The IdP has this long to answer an SP-initiated sign-in. */
const flowLifetimeMillis = 10 * 60 * 1000;
/** How long a used assertion id is remembered when the assertion names no end of validity. */
const assertionMemoryMillis = 24 * 3600 * 1000;

export type SsoAuthorizeRequest = {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  state: string;
  codeChallenge: string;
  errorRedirectUrl?: string;
  afterCallbackRedirectUrl?: string;
  loginHint?: string;
};

/**
 * Sign-in through a team's IdP: authorize (the app's PKCE pair kept in a flow, the browser sent to
 * the IdP), the IdP's answer (SAML ACS or OpenID callback) checked, the person signed in (JIT, see
 * SsoAccounts), and an authorization code for the app, exchanged at the OAuth token endpoint.
 */
export class SsoSignInService {
  constructor(
    private readonly db: DbHandle,
    private readonly projects: ProjectService,
    private readonly oauthFlows: OAuthFlowService,
    private readonly accounts: SsoAccounts,
    private readonly cipher: AtRestCipher,
    private readonly settings: SsoSettings,
    private readonly publicUrl: string,
    private readonly auditLog: AuditLog,
  ) {}

  async authorize(connectionId: string, request: SsoAuthorizeRequest): Promise<string> {
    const project = await this.oauthFlows.clientProject(request.clientId, request.clientSecret, 'authorize');
    const connection = await findConnectionInAnyProject(this.db, connectionId);
    if (!connection || connection.project_id !== project.id || !connection.enabled)
      throw new SsoConnectionNotFoundError({ connection_id: connectionId });
    const redirectUri = trustedRedirectUri(project, request);
    const data: SsoFlowData = {
      redirectUri,
      state: request.state,
      codeChallenge: request.codeChallenge,
      errorRedirectUrl: request.errorRedirectUrl ?? null,
      afterCallbackRedirectUrl: request.afterCallbackRedirectUrl ?? null,
    };
    const expiresAt = new Date(Date.now() + flowLifetimeMillis);
    if (connection.protocol === 'saml') {
      const requestId = newRequestId();
      const saml = serviceProvider(
        connection.settings as SamlSettings,
        samlEndpoints(this.publicUrl, connection.id),
        this.secretOf(connection),
        {
          requestId,
        },
      );
      await insertFlow(this.db, {
        id: requestId,
        projectId: project.id,
        connectionId: connection.id,
        data: { ...data, samlRequestId: requestId },
        expiresAt,
      });
      return saml.getAuthorizeUrlAsync('', undefined, {});
    }
    const settings = connection.settings as OidcSettings;
    const configuration = await this.discover(project, connection);
    const flowId = client.randomState();
    const codeVerifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    await insertFlow(this.db, {
      id: flowId,
      projectId: project.id,
      connectionId: connection.id,
      data: { ...data, oidcCodeVerifier: codeVerifier, oidcNonce: nonce },
      expiresAt,
    });
    return authorizationUrl(configuration, {
      redirectUri: oidcRedirectUri(this.publicUrl, connection.id),
      scope: settings.scope,
      state: flowId,
      nonce,
      codeVerifier,
      loginHint: request.loginHint,
    });
  }

  /**
   * The SAML response posted to the ACS → where to send the browser. A refused response that names a
   * live sign-in ends it: the browser goes to that sign-in's error page with the catalogued error.
   */
  async receiveSamlResponse(connectionId: string, samlResponse: string): Promise<string> {
    const { project, connection } = await this.connectionOf(connectionId, 'saml');
    const envelope = readEnvelope(samlResponse);
    try {
      return await this.checkSamlResponse(project, connection, envelope, samlResponse);
    } catch (error) {
      if (error instanceof SsoResponseInvalidError) await this.recordFailure(project.id, connection, error);
      if (!(error instanceof SsoResponseInvalidError) || !envelope.inResponseTo) throw error;
      const flow = await takeFlow(this.db, connection.id, envelope.inResponseTo);
      const redirect = flow ? errorRedirect(project, flow, error) : undefined;
      if (redirect) return redirect;
      throw error;
    }
  }

  private async checkSamlResponse(
    project: Project,
    connection: SsoConnectionRow,
    envelope: SamlEnvelope,
    samlResponse: string,
  ): Promise<string> {
    // A seen id is refused before any other check (recording it waits for a valid signature).
    if (envelope.assertionId && !(await this.isFresh(connection.id, envelope.assertionId))) throw samlRefusal('replayed');
    const isLiveRequest = async (requestId: string) => (await findLiveFlow(this.db, connection.id, requestId)) !== undefined;
    const saml = serviceProvider(
      connection.settings as SamlSettings,
      samlEndpoints(this.publicUrl, connection.id),
      this.secretOf(connection),
      {
        isLiveRequest,
      },
    );
    let profile: Awaited<ReturnType<typeof saml.validatePostResponseAsync>>['profile'];
    try {
      profile = (await saml.validatePostResponseAsync({ SAMLResponse: samlResponse })).profile;
    } catch (error) {
      throw classifySamlFailure(error, envelope);
    }
    if (!profile) throw samlRefusal('status');
    const person = personOf(profile, connection.attribute_mapping);
    const validUntil = notOnOrAfter(profile.getAssertion?.()) ?? new Date(Date.now() + assertionMemoryMillis);
    if (!person.assertionId || !(await recordAssertion(this.db, connection.id, person.assertionId, validUntil)))
      throw samlRefusal('replayed');
    const requestId = typeof profile.inResponseTo === 'string' ? profile.inResponseTo : null;
    if (!requestId) {
      // IdP-initiated: checked like any response, then the app starts its own (SP-initiated) sign-in.
      const settings = connection.settings as SamlSettings;
      if (!settings.allowIdpInitiated || !connection.idp_initiated_redirect_url) throw samlRefusal('idp_initiated_not_allowed');
      assertTrustedUrl(project, connection.idp_initiated_redirect_url);
      const location = new URL(connection.idp_initiated_redirect_url);
      location.searchParams.set('sso_connection_id', connection.id);
      return location.toString();
    }
    const flow = await takeFlow(this.db, connection.id, requestId);
    if (!flow) throw samlRefusal('unknown_request');
    return this.finish(project, connection, flow, person);
  }

  /** The OpenID provider's redirect back → where to send the browser. */
  async receiveOidcCallback(connectionId: string, parameters: Record<string, string>): Promise<string> {
    const { project, connection } = await this.connectionOf(connectionId, 'oidc');
    const flow = parameters.state ? await takeFlow(this.db, connection.id, parameters.state) : undefined;
    if (!flow) throw oidcRefusal('unknown or finished sign-in (state)');
    try {
      const configuration = await this.discover(project, connection);
      const callbackUrl = new URL(oidcRedirectUri(this.publicUrl, connection.id));
      for (const name of ['code', 'state', 'error', 'error_description', 'iss']) {
        const value = parameters[name];
        if (value !== undefined) callbackUrl.searchParams.set(name, value);
      }
      const claims = await exchangeCode(configuration, callbackUrl, {
        state: parameters.state as string,
        nonce: flow.oidcNonce ?? '',
        codeVerifier: flow.oidcCodeVerifier ?? '',
      });
      const mapping = connection.attribute_mapping;
      const claim = (name: string) => (typeof claims[name] === 'string' ? (claims[name] as string) : null);
      const groups = claims[mapping.groups ?? 'groups'];
      const person: SsoPerson = {
        subject: String(claims.sub),
        email: claim(mapping.email ?? 'email')?.toLowerCase() ?? null,
        name: claim(mapping.name ?? 'name'),
        groups: Array.isArray(groups) ? groups.filter((group): group is string => typeof group === 'string') : [],
      };
      return await this.finish(project, connection, flow, person);
    } catch (error) {
      if (error instanceof SsoResponseInvalidError) await this.recordFailure(project.id, connection, error);
      const redirect = errorRedirect(project, flow, error);
      if (redirect) return redirect;
      throw error;
    }
  }

  private async finish(project: Project, connection: SsoConnectionRow, flow: SsoFlowData, person: SsoPerson): Promise<string> {
    try {
      if (!person.email)
        throw new SsoResponseInvalidError(
          { protocol: connection.protocol, reason: 'no_email' },
          'The identity provider named no email address.',
        );
      assertTrustedUrl(project, flow.redirectUri);
      // Signed in and audited in one transaction (see SsoAccounts.signIn).
      const outcome = await this.accounts.signIn(project, connection, person);
      return await this.oauthFlows.issueAuthorizationCode(project, outcome.userId, {
        redirectUri: flow.redirectUri,
        state: flow.state,
        codeChallenge: flow.codeChallenge,
        isNewUser: outcome.isNewUser,
        afterCallbackRedirectUrl: flow.afterCallbackRedirectUrl,
      });
    } catch (error) {
      const redirect = errorRedirect(project, flow, error);
      if (redirect) return redirect;
      throw error;
    }
  }

  /** The SP metadata of a SAML connection (enabled or not): entity id, ACS URL, the encryption certificate. */
  async samlMetadata(connectionId: string): Promise<string> {
    const connection = await findConnectionInAnyProject(this.db, connectionId);
    if (connection?.protocol !== 'saml') throw new SsoConnectionNotFoundError({ connection_id: connectionId });
    const endpoints = samlEndpoints(this.publicUrl, connection.id);
    return generateServiceProviderMetadata({
      issuer: endpoints.entityId,
      callbackUrl: endpoints.acsUrl,
      identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      wantAssertionsSigned: true,
      decryptionCert: (connection.settings as SamlSettings).spCertificatePem,
      decryptionPvk: this.secretOf(connection),
    });
  }

  private async connectionOf(connectionId: string, protocol: 'saml' | 'oidc') {
    const connection = await findConnectionInAnyProject(this.db, connectionId);
    const project = connection?.enabled && connection.protocol === protocol ? await this.projects.find(connection.project_id) : undefined;
    if (!connection || !project) throw new SsoConnectionNotFoundError({ connection_id: connectionId });
    return { project, connection };
  }

  /** A refused IdP answer (nothing changed, so written on its own). */
  private recordFailure(projectId: ProjectId, connection: SsoConnectionRow, error: SsoResponseInvalidError) {
    return this.auditLog.recordAlone(projectId, {
      action: 'sso.sign_in_failed',
      teamId: connection.team_id,
      target: { type: 'sso_connection', id: connection.id },
      actor: { type: 'anonymous', id: null },
      details: { protocol: connection.protocol, reason: (error.details as { reason?: string } | undefined)?.reason ?? null },
    });
  }

  private async isFresh(connectionId: string, assertionId: string): Promise<boolean> {
    return !(await findUsedAssertion(this.db, connectionId, assertionId));
  }

  private discover(project: Project, connection: SsoConnectionRow) {
    return discoverProvider(
      connection.settings as OidcSettings,
      this.secretOf(connection),
      { allowLoopback: project.config.domains.allowLocalhost },
      this.settings.resolveHost,
    );
  }

  secretOf(connection: SsoConnectionRow): string {
    return this.cipher.open(connection.sealed_secret, sealPlace(connection.id));
  }
}

/** The `NotOnOrAfter` of a parsed assertion's conditions (how long its id must be remembered). */
function notOnOrAfter(parsed: unknown): Date | null {
  const conditions = (parsed as { Assertion?: { Conditions?: Array<{ $?: { NotOnOrAfter?: string } }> } } | undefined)?.Assertion
    ?.Conditions;
  const value = conditions?.[0]?.$?.NotOnOrAfter;
  const date = value ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}
