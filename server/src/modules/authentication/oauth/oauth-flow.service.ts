import { createHash } from 'node:crypto';
import {
  InvalidAuthorizationCodeError,
  InvalidOauthClientIdOrSecretError,
  InvalidProjectForAccessTokenError,
  InvalidPublishableClientKeyError,
  InvalidScopeError,
  OauthFlowTargetDeletedError,
  OauthExtraScopeNotAvailableWithSharedOauthKeysError,
  OauthProviderNotFoundOrNotEnabledError,
  OuterOauthTimeoutError,
  PublishableClientKeyRequiredForProjectError,
} from '@gatehouse/protocol/errors';
import * as client from 'openid-client';
import type { DbHandle } from '../../../db/handle.ts';
import { digestSecret } from '../../../lib/digest.ts';
import { PlainHttpError } from '../../../lib/plain-http-error.ts';
import { randomBase32 } from '../../../lib/random.ts';
import type { ApiKeyService } from '../../platform/project-keys/index.ts';
import type { AccessTokenService } from '../access-tokens/index.ts';
import type { ProjectService } from '../../platform/projects/index.ts';
import type { Project } from '../../../tenancy/project.ts';
import { assertTrustedUrl } from '../../platform/projects/index.ts';
import { errorRedirect, trustedRedirectUri } from './flow-redirects.ts';
import type { SignInService, SignInTokens } from '../sign-in/index.ts';
import type { UserService } from '../../identity/users/index.ts';
import type { BotChallengeFields, BotChallengeService } from '../bot-challenges/index.ts';
import type { OAuthAccountService } from './oauth-account.service.ts';
import {
  deleteFlow,
  findFlowInAnyProject,
  insertAuthorizationCode,
  insertFlow,
  type OuterFlow,
  useAuthorizationCode,
} from './oauth-flow.repository.ts';
import type { OAuthSettings } from './oauth-settings.ts';
import { providerClientOf, providerConfigOf, resolveProvider } from './resolve-provider.ts';

/** The outer flow (authorize → callback) lasts this long; later callbacks are OUTER_OAUTH_TIMEOUT. */
export const outerFlowLifetimeMillis = 10 * 60 * 1000;
/** The app has this long to exchange the callback's code. */
const authorizationCodeLifetimeMillis = 10 * 60 * 1000;
/** The sentinel client secret of clients without a publishable key. */
export const publicClientSecret = '__stack_public_client__';
export const innerCookiePrefix = 'stack-oauth-inner-';

export type AuthorizeRequest = {
  providerConfigId: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  scope: string;
  state: string;
  codeChallenge: string;
  type: 'authenticate' | 'link';
  token?: string;
  providerScope?: string;
  errorRedirectUrl?: string;
  afterCallbackRedirectUrl?: string;
  jsonMode: boolean;
  /** The `bot_challenge_*` query parameters, and the client IP the provider is told. */
  botChallenge: BotChallengeFields;
  ip: string;
};

/** Where the callback sends the browser. */
export type CallbackResult = { location: string };

/**
 * The OAuth flows: authorize (checks, the outer flow, the provider's URL), callback (the provider's
 * code → an account → our authorization code for the app) and the code exchange of the token endpoint.
 */
export class OAuthFlowService {
  constructor(
    private readonly db: DbHandle,
    private readonly projects: ProjectService,
    private readonly apiKeys: ApiKeyService,
    private readonly accessTokens: AccessTokenService,
    private readonly users: UserService,
    private readonly accounts: OAuthAccountService,
    private readonly signIn: SignInService,
    private readonly botChallenges: BotChallengeService,
    private readonly settings: OAuthSettings,
    private readonly publicUrl: string,
  ) {}

  get publicUrlIsHttps(): boolean {
    return this.publicUrl.startsWith('https:');
  }

  /** The project of `client_id` (`projectId` or `projectId#branchId`) whose `client_secret` is valid. */
  async clientProject(clientId: string, clientSecret: string | undefined, keyError: 'authorize' | 'token'): Promise<Project> {
    const project = await this.projects.find((clientId.split('#')[0] as string).toLowerCase());
    if (!project) throw new InvalidOauthClientIdOrSecretError({ client_id: clientId });
    if (clientSecret === undefined || clientSecret === '' || clientSecret === publicClientSecret) {
      if (project.config.project.requirePublishableClientKey)
        throw new PublishableClientKeyRequiredForProjectError({ project_id: project.id });
    } else if (!(await this.apiKeys.isValidKey(project.id, 'publishable_client_key', clientSecret))) {
      throw keyError === 'authorize'
        ? new InvalidPublishableClientKeyError({ project_id: project.id })
        : new InvalidOauthClientIdOrSecretError({ client_id: clientId });
    }
    return project;
  }

  async authorize(request: AuthorizeRequest): Promise<{ location: string; cookie?: { name: string; value: string } }> {
    const project = await this.clientProject(request.clientId, request.clientSecret, 'authorize');
    if (request.scope !== 'legacy') throw new InvalidScopeError();
    const config = providerConfigOf(project, request.providerConfigId);
    const enabled = request.type === 'link' ? config.allowSignIn || config.allowConnectedAccounts : config.allowSignIn;
    if (!enabled) throw new OauthProviderNotFoundOrNotEnabledError();
    const provider = resolveProvider(project, request.providerConfigId, this.settings, this.publicUrl);
    const redirectUri = trustedRedirectUri(project, request);
    if (request.type === 'link' && !request.token)
      throw new PlainHttpError(400, 'type=link needs the access token of the user to link to (token).');
    if (request.providerScope && provider.isShared) throw new OauthExtraScopeNotAvailableWithSharedOauthKeysError();
    let userId: string | null = null;
    if (request.token) {
      const claims = await this.accessTokens.verify(request.token);
      if (claims.project_id !== project.id) {
        throw new InvalidProjectForAccessTokenError({ expected_project_id: project.id, actual_project_id: claims.project_id });
      }
      userId = claims.sub;
    }
    // Verified now (the token lives minutes) without refusing: only the callback knows whether a user is created.
    const botChallenge =
      request.type === 'authenticate' ? await this.botChallenges.check(project, request.botChallenge, request.ip) : undefined;
    const innerState = client.randomState();
    const codeVerifier = client.randomPKCECodeVerifier();
    // The ID token of a project's own OpenID provider must carry this nonce (kept with the flow).
    const nonce = provider.oidc ? client.randomNonce() : undefined;
    const providerClient = await providerClientOf(project, provider, 'authorize');
    const location = await providerClient.authorizationUrl({
      state: innerState,
      codeVerifier,
      scope: providerClient.scopeWith(request.providerScope),
      nonce,
    });
    const flow: OuterFlow = {
      type: request.type,
      userId,
      redirectUri,
      state: request.state,
      codeChallenge: request.codeChallenge,
      providerScope: request.providerScope ?? null,
      errorRedirectUrl: request.errorRedirectUrl ?? null,
      afterCallbackRedirectUrl: request.afterCallbackRedirectUrl ?? null,
      codeVerifier: request.jsonMode ? codeVerifier : null,
      ...(botChallenge ? { botChallenge } : {}),
      ...(nonce ? { nonce } : {}),
    };
    await insertFlow(this.db, {
      innerState,
      projectId: project.id,
      providerConfigId: provider.configId,
      data: flow,
      expiresAt: new Date(Date.now() + outerFlowLifetimeMillis),
    });
    return request.jsonMode ? { location } : { location, cookie: { name: `${innerCookiePrefix}${innerState}`, value: codeVerifier } };
  }

  /**
   * The provider came back. `cookies` are the request's; `parameters` the provider's (query or form).
   * Failures after the flow is known go to its error redirect URL when it has one.
   */
  async callback(
    providerConfigId: string,
    parameters: Record<string, string>,
    cookies: Record<string, string | undefined>,
    ip: string,
  ): Promise<CallbackResult> {
    const innerState = parameters.state ?? '';
    const stored = innerState ? await findFlowInAnyProject(this.db, innerState) : undefined;
    if (!stored || stored.providerConfigId !== providerConfigId) {
      throw new PlainHttpError(400, 'Unknown OAuth state: this sign-in was already completed or never started here. Please sign in again.');
    }
    const codeVerifier = stored.data.codeVerifier ?? cookies[`${innerCookiePrefix}${innerState}`];
    if (!codeVerifier) {
      throw new PlainHttpError(
        400,
        'The OAuth cookie of this sign-in is missing (was it started in another browser?). Please sign in again.',
      );
    }
    if (!(await deleteFlow(this.db, stored.projectId, innerState)))
      throw new PlainHttpError(400, 'This OAuth sign-in was already completed. Please sign in again.');
    const project = await this.projects.find(stored.projectId);
    // Only in a race: deleting the project deletes its flows, so the project went after the flow was taken.
    if (!project)
      throw new OauthFlowTargetDeletedError({ reason: 'project_deleted' }, 'The project of this OAuth sign-in no longer exists.');
    const flow = stored.data;
    try {
      if (stored.expiresAt.getTime() < Date.now()) throw new OuterOauthTimeoutError();
      const config = providerConfigOf(project, providerConfigId);
      if (!(flow.type === 'link' ? config.allowSignIn || config.allowConnectedAccounts : config.allowSignIn)) {
        throw new OauthProviderNotFoundOrNotEnabledError();
      }
      const provider = resolveProvider(project, providerConfigId, this.settings, this.publicUrl);
      const providerClient = await providerClientOf(project, provider, 'callback');
      const { profile, tokens } = await providerClient.exchangeCode(parameters, {
        state: innerState,
        codeVerifier,
        requestedScope: providerClient.scopeWith(flow.providerScope ?? undefined),
        nonce: flow.nonce,
      });
      // The project's domains may have changed since authorize.
      assertTrustedUrl(project, flow.redirectUri);
      const outcome = await this.accounts.complete(project, provider, flow, profile, tokens, { ip, botChallenge: flow.botChallenge });
      const code = randomBase32(45);
      await insertAuthorizationCode(this.db, {
        codeHash: digestSecret(code),
        projectId: project.id,
        userId: outcome.userId,
        redirectUri: flow.redirectUri,
        codeChallenge: flow.codeChallenge,
        isNewUser: outcome.isNewUser,
        afterCallbackRedirectUrl: flow.afterCallbackRedirectUrl,
        expiresAt: new Date(Date.now() + authorizationCodeLifetimeMillis),
      });
      const location = new URL(flow.redirectUri);
      location.searchParams.set('code', code);
      location.searchParams.set('state', flow.state);
      return { location: location.toString() };
    } catch (error) {
      const redirect = errorRedirect(project, flow, error);
      if (redirect) return { location: redirect };
      throw error;
    }
  }

  /**
   * `POST /auth/oauth/cross-domain/authorize`: an authorization code for the signed-in user, bound to
   * a trusted `redirect_uri` and the PKCE challenge of the other domain, exchanged there at the token
   * endpoint like the code of an OAuth callback.
   */
  async crossDomainAuthorize(
    project: Project,
    userId: string,
    request: { redirectUri: string; state: string; codeChallenge: string; afterCallbackRedirectUrl?: string },
  ): Promise<{ redirect_url: string }> {
    const redirectUri = trustedRedirectUri(project, request);
    const redirectUrl = await this.issueAuthorizationCode(project, userId, {
      redirectUri,
      state: request.state,
      codeChallenge: request.codeChallenge,
      isNewUser: false,
      afterCallbackRedirectUrl: request.afterCallbackRedirectUrl ?? null,
    });
    return { redirect_url: redirectUrl };
  }

  /**
   * An authorization code for a user, bound to the app's (already checked) `redirectUri` and PKCE
   * challenge: the URL to send the browser to. Other sign-in flows (enterprise SSO) end here, so the
   * app exchanges their code at the token endpoint like an OAuth callback's.
   */
  async issueAuthorizationCode(
    project: Project,
    userId: string,
    grant: { redirectUri: string; state: string; codeChallenge: string; isNewUser: boolean; afterCallbackRedirectUrl: string | null },
  ): Promise<string> {
    const code = randomBase32(45);
    await insertAuthorizationCode(this.db, {
      codeHash: digestSecret(code),
      projectId: project.id,
      userId,
      redirectUri: grant.redirectUri,
      codeChallenge: grant.codeChallenge,
      isNewUser: grant.isNewUser,
      afterCallbackRedirectUrl: grant.afterCallbackRedirectUrl,
      expiresAt: new Date(Date.now() + authorizationCodeLifetimeMillis),
    });
    const location = new URL(grant.redirectUri);
    location.searchParams.set('code', code);
    location.searchParams.set('state', grant.state);
    return location.toString();
  }

  /** The token endpoint's authorization_code grant: the code, its redirect URI and PKCE verifier → a sign-in. */
  async exchangeCode(
    project: Project,
    grant: { code: string; redirectUri: string; codeVerifier: string },
    ip: string,
  ): Promise<SignInTokens & { isNewUser: boolean; afterCallbackRedirectUrl: string | null }> {
    const row = await useAuthorizationCode(this.db, project.id, digestSecret(grant.code));
    if (!row) throw new InvalidAuthorizationCodeError();
    const challenge = createHash('sha256').update(grant.codeVerifier).digest('base64url');
    if (challenge !== row.code_challenge) throw new InvalidAuthorizationCodeError();
    if (grant.redirectUri.split('#')[0] !== row.redirect_uri) {
      throw new PlainHttpError(400, 'redirect_uri must be the one of the authorize request.');
    }
    const user = await this.users.find(project.id, row.user_id);
    if (!user) throw new InvalidAuthorizationCodeError();
    const tokens = await this.signIn.signInWithMfaCheck(project, user, { ip });
    return { ...tokens, isNewUser: row.is_new_user, afterCallbackRedirectUrl: row.after_callback_redirect_url };
  }
}
