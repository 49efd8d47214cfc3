import {
  ContactChannelAlreadyUsedForAuthBySomeoneElseError,
  OauthConnectionAlreadyConnectedToAnotherUserError,
  OauthFlowTargetDeletedError,
  SignUpNotEnabledError,
  UserEmailAlreadyExistsError,
} from '@gatehouse/protocol/errors';
import type { DbHandle } from '../../../db/handle.ts';
import type { OAuthAccountRow } from './oauth.table.ts';
import { isUniqueViolation } from '../../../db/unique-violation.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { UserRecord } from '../../../tenancy/user-record.ts';
import type { UserService } from '../../identity/users/index.ts';
import type { BotChallengeCheck, BotChallengeService } from '../bot-challenges/index.ts';
import type { SignUpSignals, UserWrite } from '../../identity/users/index.ts';
import { findSignInAccount, insertAccount, insertToken, listAccounts, updateAccount } from './oauth-account.repository.ts';
import type { OuterFlow } from './oauth-flow.repository.ts';
import type { ProviderTokens, ResolvedProvider } from './provider-client.ts';
import type { ProviderProfile } from './provider-table.ts';
import type { TokenSealer } from './token-sealing.ts';

export type FlowOutcome = { userId: string; isNewUser: boolean };

/**
 * What a sign-in brought for a sign-up: the client IP, and the bot challenge — checked at authorize for
 * a browser's flow, or `native` for native Sign in with Apple (an app has no page for the widget and
 * Stack's native route takes no challenge; Apple signed the token for the project's app). Either way
 * the sign-up rules and risk scores judge the new user, with the IP.
 */
export type FlowSignUpContext = { ip: string; botChallenge: BotChallengeCheck | undefined | 'native' };

/**
 * Who a provider account is at the end of a callback: the user it links to (link flows), the user
 * who signs in with it, a user with the same email (per the project's merge strategy), or a new user.
 * The provider tokens are kept with the account for connected accounts.
 */
export class OAuthAccountService {
  constructor(
    private readonly db: DbHandle,
    private readonly users: UserService,
    private readonly sealer: TokenSealer,
    private readonly botChallenges: BotChallengeService,
  ) {}

  async complete(
    project: Project,
    provider: Pick<ResolvedProvider, 'configId' | 'type'>,
    flow: OuterFlow,
    profile: ProviderProfile,
    /** The provider's tokens, kept for connected accounts; null when there are none (native Apple sign-in). */
    tokens: ProviderTokens | null,
    /** The sign-up context: a browser flow creates a new user only when its bot challenge passes the project's mode. */
    signUpContext: FlowSignUpContext,
  ): Promise<FlowOutcome> {
    const signIn = await findSignInAccount(this.db, project.id, provider.configId, profile.accountId);
    if (flow.type === 'link') {
      const user = await this.users.find(project.id, flow.userId ?? '');
      if (!user) throw new OauthFlowTargetDeletedError({ reason: 'user_deleted' }, 'The user this OAuth flow links to no longer exists.');
      if (signIn && signIn.user_id !== user.id) throw new OauthConnectionAlreadyConnectedToAnotherUserError();
      await this.keepTokens(project, await this.link(project, provider, user.id, profile), tokens);
      return { userId: user.id, isNewUser: false };
    }
    if (signIn) {
      await this.keepTokens(project, signIn, tokens);
      return { userId: signIn.user_id, isNewUser: false };
    }
    let emailSignsIn = profile.email !== null;
    if (profile.email) {
      const owner = await this.users.findAuthEmail(project.id, profile.email);
      if (owner) {
        const conflict = (wouldWork: boolean) =>
          new ContactChannelAlreadyUsedForAuthBySomeoneElseError({
            type: 'email',
            contact_channel_value: profile.email,
            would_work_if_email_was_verified: wouldWork,
          });
        switch (project.config.auth.oauth.accountMergeStrategy) {
          case 'raise_error':
            throw conflict(false);
          case 'allow_duplicates':
            emailSignsIn = false;
            break;
          default:
            // link_method: only when both sides proved they own the address.
            if (!owner.is_verified || !profile.emailVerified) throw conflict(true);
            await this.keepTokens(project, await this.link(project, provider, owner.user_id, profile), tokens);
            return { userId: owner.user_id, isNewUser: false };
        }
      }
    }
    if (!project.config.auth.allowSignUp) throw new SignUpNotEnabledError();
    // Only here, where a user would be created: users signing in again are never challenged.
    const { ip, botChallenge } = signUpContext;
    const signals: SignUpSignals =
      botChallenge === 'native' ? { ip } : { ip, botChallenge: this.botChallenges.enforce(project, botChallenge ?? { result: 'missing' }) };
    const user = await this.signUp(project, provider.type, flow, profile, emailSignsIn, signals);
    await this.keepTokens(project, await this.link(project, provider, user.id, profile), tokens);
    return { userId: user.id, isNewUser: true };
  }

  /** A new user, or the anonymous user of the flow upgraded in place (it keeps its id). */
  private async signUp(
    project: Project,
    providerType: string,
    flow: OuterFlow,
    profile: ProviderProfile,
    emailSignsIn: boolean,
    signals: SignUpSignals,
  ): Promise<UserRecord> {
    const write: UserWrite = {
      display_name: profile.displayName?.slice(0, 256) ?? null,
      profile_image_url: profile.profileImageUrl,
      ...(profile.email
        ? { primary_email: profile.email, primary_email_verified: profile.emailVerified, primary_email_auth_enabled: emailSignsIn }
        : {}),
    };
    try {
      const anonymous = flow.userId ? await this.users.find(project.id, flow.userId) : undefined;
      if (anonymous?.is_anonymous)
        return await this.users.update(
          project,
          anonymous.id,
          { ...write, is_anonymous: false },
          { method: 'oauth', oauthProvider: providerType, ...signals },
        );
      return await this.users.create(project, write, 'oauth', providerType, signals);
    } catch (error) {
      // Another account took the email between the check and the insert.
      if (error instanceof UserEmailAlreadyExistsError) {
        throw new ContactChannelAlreadyUsedForAuthBySomeoneElseError({
          type: 'email',
          contact_channel_value: profile.email,
          would_work_if_email_was_verified: false,
        });
      }
      throw error;
    }
  }

  /**
   * The user's link to this provider account, created when missing. It signs in unless the user
   * already signs in with another account of this provider type (or the provider is for connected
   * accounts only), in which case it only connects.
   */
  private async link(project: Project, provider: Pick<ResolvedProvider, 'configId' | 'type'>, userId: string, profile: ProviderProfile) {
    const config = project.config.auth.oauth.providers[provider.configId];
    const links = await listAccounts(this.db, project.id, { userId });
    const same = links.find((link) => link.provider_config_id === provider.configId && link.account_id === profile.accountId);
    if (same)
      return profile.email && same.email !== profile.email ? updateAccount(this.db, project.id, same.id, { email: profile.email }) : same;
    const signsInWithType = links.some((link) => link.provider_type === provider.type && link.allow_sign_in);
    const allowSignIn = (config?.allowSignIn ?? false) && !signsInWithType;
    try {
      return await insertAccount(this.db, project.id, {
        user_id: userId,
        provider_config_id: provider.configId,
        provider_type: provider.type,
        account_id: profile.accountId,
        email: profile.email,
        allow_sign_in: allowSignIn,
        allow_connected_accounts: config?.allowConnectedAccounts ?? true,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new OauthConnectionAlreadyConnectedToAnotherUserError();
      throw error;
    }
  }

  private async keepTokens(project: Project, account: OAuthAccountRow, tokens: ProviderTokens | null): Promise<void> {
    if (!tokens) return;
    await insertToken(this.db, project.id, {
      oauthAccountId: account.id,
      kind: 'access',
      sealedValue: this.sealer.seal(tokens.accessToken),
      scopes: tokens.scopes,
      expiresAt: tokens.expiresAt,
    });
    if (tokens.refreshToken) {
      await insertToken(this.db, project.id, {
        oauthAccountId: account.id,
        kind: 'refresh',
        sealedValue: this.sealer.seal(tokens.refreshToken),
        scopes: tokens.scopes,
        expiresAt: null,
      });
    }
  }
}
