import {
  OauthAccessTokenNotAvailableError,
  OauthAccessTokenNotAvailableWithSharedOauthKeysError,
  OauthConnectionDoesNotHaveRequiredScopeError,
  OauthConnectionNotConnectedToUserError,
  OauthProviderNotFoundOrNotEnabledError,
} from '@gatehouse/protocol/errors';
import * as client from 'openid-client';
import type { DbHandle } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { OAuthProviderTokenRow } from './oauth.table.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { UserService } from '../../identity/users/index.ts';
import { insertToken, invalidateToken, listAccounts, listTokenScopes, listValidTokens } from './oauth-account.repository.ts';
import type { OAuthSettings } from './oauth-settings.ts';
import { type ProviderClient, type ResolvedProvider, splitScopes } from './provider-client.ts';
import { providerClientOf, providerConfigOf, resolveProvider, usesSharedKeys } from './resolve-provider.ts';
import type { TokenSealer } from './token-sealing.ts';

/** A stored access token is handed out only while it lives at least this much longer. */
const minimumRemainingMillis = 60 * 1000;

/** Connected accounts: a user's provider accounts whose provider access tokens the app may use. */
export class ConnectedAccountService {
  constructor(
    private readonly db: DbHandle,
    private readonly users: UserService,
    private readonly sealer: TokenSealer,
    private readonly settings: OAuthSettings,
    private readonly publicUrl: string,
  ) {}

  async list(projectId: ProjectId, userId: string) {
    await this.users.get(projectId, userId);
    const accounts = await listAccounts(this.db, projectId, { userId });
    return accounts
      .filter((account) => account.allow_connected_accounts)
      .map((account) => ({ user_id: account.user_id, provider: account.provider_config_id, provider_account_id: account.account_id }));
  }

  /**
   * A provider access token with `scope`: a stored one that lives on, else one refreshed with a stored
   * refresh token. The most recently linked account of the provider unless `providerAccountId` names one.
   */
  async accessToken(project: Project, userId: string, providerConfigId: string, providerAccountId: string | undefined, scope?: string) {
    const config = providerConfigOf(project, providerConfigId);
    if (usesSharedKeys(config)) throw new OauthAccessTokenNotAvailableWithSharedOauthKeysError();
    await this.users.get(project.id, userId);
    const accounts = (await listAccounts(this.db, project.id, { userId, providerConfigId, accountId: providerAccountId })).filter(
      (account) => account.allow_connected_accounts,
    );
    const account = accounts.at(-1);
    if (!account) throw new OauthConnectionNotConnectedToUserError();
    const required = splitScopes(scope);
    const covers = (token: OAuthProviderTokenRow) => required.every((name) => token.scopes.includes(name));

    const stored = (await listValidTokens(this.db, project.id, account.id, 'access', minimumRemainingMillis)).find(covers);
    if (stored) return { access_token: this.sealer.open(stored.sealed_value) };
    const refreshTokens = (await listValidTokens(this.db, project.id, account.id, 'refresh')).filter(covers);
    if (refreshTokens.length === 0) {
      const scopeSets = await listTokenScopes(this.db, project.id, account.id);
      if (!scopeSets.some((scopes) => required.every((name) => scopes.includes(name)))) {
        throw new OauthConnectionDoesNotHaveRequiredScopeError();
      }
      throw unavailable(providerConfigId, 'The access token expired and the provider gave no refresh token; connect the account again.');
    }
    let provider: ResolvedProvider;
    try {
      provider = resolveProvider(project, providerConfigId, this.settings, this.publicUrl);
    } catch {
      throw new OauthProviderNotFoundOrNotEnabledError();
    }
    let providerClient: ProviderClient;
    try {
      providerClient = await providerClientOf(project, provider, 'callback');
    } catch {
      throw unavailable(providerConfigId, 'The provider could not be reached to refresh the access token; try again later.');
    }
    let failure = 'The provider refused to refresh the access token.';
    for (const refreshToken of refreshTokens) {
      try {
        const tokens = await providerClient.refresh(this.sealer.open(refreshToken.sealed_value), refreshToken.scopes);
        await insertToken(this.db, project.id, {
          oauthAccountId: account.id,
          kind: 'access',
          sealedValue: this.sealer.seal(tokens.accessToken),
          scopes: tokens.scopes,
          expiresAt: tokens.expiresAt,
        });
        if (tokens.refreshToken && tokens.refreshToken !== this.sealer.open(refreshToken.sealed_value)) {
          // The provider rotated the refresh token: keep the new one only.
          await insertToken(this.db, project.id, {
            oauthAccountId: account.id,
            kind: 'refresh',
            sealedValue: this.sealer.seal(tokens.refreshToken),
            scopes: refreshToken.scopes,
            expiresAt: null,
          });
          await invalidateToken(this.db, project.id, refreshToken.id);
        }
        return { access_token: tokens.accessToken };
      } catch (error) {
        // A refused refresh token (revoked, expired) is not tried again; a network failure may pass.
        if (error instanceof client.ResponseBodyError && error.status < 500) {
          await invalidateToken(this.db, project.id, refreshToken.id);
          failure = `The provider refused the refresh token (${error.error}); connect the account again.`;
        } else {
          failure = 'The provider could not be reached to refresh the access token; try again later.';
        }
      }
    }
    throw unavailable(providerConfigId, failure);
  }
}

const unavailable = (provider: string, details: string) => new OauthAccessTokenNotAvailableError({ provider, details }, details);
