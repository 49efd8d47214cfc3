import {
  AppleBundleIdNotConfiguredError,
  InvalidAppleCredentialsError,
  OauthProviderNotFoundOrNotEnabledError,
  OauthProviderTemporarilyUnavailableError,
} from '@gatehouse/protocol/errors';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import type { Project } from '../../../tenancy/project.ts';
import type { SignInService, SignInTokens } from '../sign-in/index.ts';
import type { UserService } from '../../identity/users/index.ts';
import type { OAuthAccountService } from './oauth-account.service.ts';
import type { OAuthSettings } from './oauth-settings.ts';
import { providerTypeOf } from './resolve-provider.ts';

/** Apple's identity-token keys and issuer (operators replace them with `OAUTH_APPLE_JWKS_URL` / `OAUTH_APPLE_ISSUER`). */
export const appleJwksUrl = 'https://appleid.apple.com/auth/keys';
const appleIssuer = 'https://appleid.apple.com';
/** The longest wait for Apple's keys; past it the sign-in is OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE. */
const jwksTimeoutMillis = 5_000;

/** The bundle ids of an Apple provider's config (`appleBundles: {[id]: {bundleId}}`). */
function bundleIdsOf(config: Record<string, unknown>): string[] {
  const bundles = config.appleBundles;
  if (!bundles || typeof bundles !== 'object') return [];
  return Object.values(bundles as Record<string, unknown>).flatMap((bundle) => {
    const id = bundle && typeof bundle === 'object' ? (bundle as { bundleId?: unknown }).bundleId : undefined;
    return typeof id === 'string' && id ? [id] : [];
  });
}

/**
 * Native Sign in with Apple: the app's identity token, verified against Apple's keys, signs the Apple
 * account in or up exactly as an OAuth callback would (OAuthAccountService.complete).
 */
export class AppleNativeSignInService {
  private readonly keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

  constructor(
    private readonly users: UserService,
    private readonly accounts: OAuthAccountService,
    private readonly signIn: SignInService,
    private readonly settings: OAuthSettings,
  ) {}

  private keySet(url: string) {
    let keys = this.keySets.get(url);
    if (!keys) {
      keys = createRemoteJWKSet(new URL(url), { timeoutDuration: jwksTimeoutMillis, cooldownDuration: 30_000 });
      this.keySets.set(url, keys);
    }
    return keys;
  }

  async signInWithIdToken(
    project: Project,
    idToken: string,
    caller: { anonymousUserId: string | null; ip: string },
  ): Promise<SignInTokens & { is_new_user: boolean }> {
    const entry = Object.entries(project.config.auth.oauth.providers).find(
      ([configId, config]) => providerTypeOf(configId, config) === 'apple' && config.allowSignIn,
    );
    if (!entry) throw new OauthProviderNotFoundOrNotEnabledError();
    const [configId, config] = entry;
    const bundleIds = bundleIdsOf(config as Record<string, unknown>);
    if (bundleIds.length === 0) throw new AppleBundleIdNotConfiguredError();
    const audiences = config.clientId ? [...bundleIds, config.clientId] : bundleIds;
    const payload = await this.verify(idToken, audiences);
    if (typeof payload.sub !== 'string' || !payload.sub) throw new InvalidAppleCredentialsError();
    const email = typeof payload.email === 'string' && payload.email ? payload.email : null;
    const outcome = await this.accounts.complete(
      project,
      { configId, type: 'apple' },
      {
        type: 'authenticate',
        userId: caller.anonymousUserId,
        redirectUri: '',
        state: '',
        codeChallenge: '',
        providerScope: null,
        errorRedirectUrl: null,
        afterCallbackRedirectUrl: null,
        codeVerifier: null,
      },
      {
        accountId: payload.sub,
        email,
        // Apple writes the flag as a boolean or as the string "true".
        emailVerified: payload.email_verified === true || payload.email_verified === 'true',
        displayName: null,
        profileImageUrl: null,
      },
      null,
      // No bot challenge on a native app's path (docs/guide/sign-up-protection.md); the rules still judge a sign-up.
      { ip: caller.ip, botChallenge: 'native' },
    );
    const user = await this.users.find(project.id, outcome.userId);
    if (!user) throw new InvalidAppleCredentialsError();
    const tokens = await this.signIn.signInWithMfaCheck(project, user, { ip: caller.ip });
    return { ...tokens, is_new_user: outcome.isNewUser };
  }

  private async verify(idToken: string, audiences: string[]) {
    const endpoints = this.settings.endpoints.apple ?? {};
    try {
      const { payload } = await jwtVerify(idToken, this.keySet(this.settings.appleJwksUrl ?? appleJwksUrl), {
        issuer: endpoints.issuer ?? appleIssuer,
        audience: audiences,
        algorithms: ['RS256', 'ES256'],
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      return payload;
    } catch (error) {
      // Apple's keys not reachable (or not answering) is Apple's outage, not a bad token.
      if (error instanceof joseErrors.JWKSTimeout || !(error instanceof joseErrors.JOSEError) || isKeySetFetchFailure(error)) {
        throw new OauthProviderTemporarilyUnavailableError();
      }
      throw new InvalidAppleCredentialsError();
    }
  }
}

/** jose's answer to a key set URL that does not answer 200 with a key set. */
function isKeySetFetchFailure(error: InstanceType<typeof joseErrors.JOSEError>): boolean {
  return error.code === 'ERR_JOSE_GENERIC' && /JSON Web Key Set/.test(error.message);
}
