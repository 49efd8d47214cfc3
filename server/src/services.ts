import type { Kysely } from 'kysely';
import type { ServerEnv } from './config/env.ts';
import type { Database } from './db/schema.ts';
import { ApiKeyService } from './modules/api-keys/api-key.service.ts';
import { AccessTokenService } from './modules/access-tokens/access-token.service.ts';
import { RequestAuthenticator } from './request-context/request-auth.ts';
import { InternalProjectService } from './modules/internal/internal-project.service.ts';
import { ContactChannelService } from './modules/contact-channels/contact-channel.service.ts';
import { type EmailLog, EmailService } from './modules/email/email.service.ts';
import { OtpAuthService } from './modules/otp-auth/otp-auth.service.ts';
import { PasskeyService } from './modules/passkeys/passkey.service.ts';
import { PasswordAuthService } from './modules/password-auth/password-auth.service.ts';
import { PermissionService } from './modules/permissions/permission.service.ts';
import { TeamService } from './modules/teams/team.service.ts';
import { TeamInvitationService } from './modules/teams/team-invitation.service.ts';
import { EndUserApiKeyService } from './modules/end-user-api-keys/end-user-api-key.service.ts';
import { PasswordResetService } from './modules/password-auth/password-reset.service.ts';
import { ProjectService } from './modules/projects/project.service.ts';
import { SessionService } from './modules/sessions/session.service.ts';
import { TokenService } from './modules/sessions/token.service.ts';
import { SignInService } from './modules/sign-in/sign-in.service.ts';
import { SigningKeysService } from './modules/signing-keys/signing-keys.service.ts';
import { UserService } from './modules/users/user.service.ts';
import { VerificationCodeService } from './modules/verification-codes/verification-code.service.ts';
import { ConnectedAccountService } from './modules/oauth/connected-account.service.ts';
import { OAuthAccountService } from './modules/oauth/oauth-account.service.ts';
import { OAuthFlowService } from './modules/oauth/oauth-flow.service.ts';
import { OAuthLinkService } from './modules/oauth/oauth-link.service.ts';
import type { OAuthSettings } from './modules/oauth/oauth-settings.ts';
import { TokenSealer } from './modules/oauth/token-sealing.ts';
import { MfaService } from './modules/mfa/mfa.service.ts';
import { CliLoginService } from './modules/cli-login/cli-login.service.ts';
import { NotificationPreferenceService } from './modules/notification-preferences/notification-preference.service.ts';

export type ServiceOptions = Pick<ServerEnv, 'publicUrl' | 'smtp'> & { emailLog?: EmailLog; oauth?: OAuthSettings };

/** Every service, wired once per app; handlers and tests reach them through `app.services`. */
export function createServices(db: Kysely<Database>, env: ServiceOptions, serverSecret: Buffer) {
  const projects: ProjectService = new ProjectService(db, (projectId, trx) => permissions.seedDefaults(projectId, trx));
  const permissions = new PermissionService(
    db,
    (projectId, change, trx) => projects.updateDefaultPermissions(projectId, change, trx),
    (projectId) => projects.forget(projectId),
  );
  const teams = new TeamService(db, permissions);
  const apiKeys = new ApiKeyService(db);
  const signingKeys = new SigningKeysService(serverSecret);
  const accessTokens = new AccessTokenService(signingKeys, env.publicUrl);
  // New users get the sign-up default project permissions, and a personal team when the project asks.
  // Provider accounts imported by POST /users are linked in the creating transaction.
  const users: UserService = new UserService(
    db,
    async (trx, project, user) => {
      await permissions.grantProjectDefaults(project.id, user.id, Object.keys(project.config.rbac.defaultPermissions.signUp), trx);
      if (project.config.teams.createPersonalTeamOnSignUp && !user.is_anonymous) {
        const name = user.display_name ? `${user.display_name}'s Team` : 'Personal Team';
        const team = await teams.create(project, { display_name: name }, user.id, trx);
        await trx.updateTable('project_user').set({ selected_team_id: team.id }).where('id', '=', user.id).execute();
      }
    },
    (trx, project, userId, account) => oauthLinks.linkImported(trx, project, userId, account),
  );
  const sessions = new SessionService(db);
  const tokens = new TokenService(sessions, accessTokens);
  const verificationCodes = new VerificationCodeService(db);
  const signIn = new SignInService(sessions, accessTokens, verificationCodes);
  const email = new EmailService(db, {
    sharedSmtp: env.smtp,
    log: env.emailLog ?? ((message, fields) => console.log(message, fields.text ?? '')),
  });
  const contactChannels = new ContactChannelService(db, users, verificationCodes, email);
  const notificationPreferences = new NotificationPreferenceService(db, users);
  const passwordAuth = new PasswordAuthService(users, sessions, signIn, (project, user, callbackUrl) =>
    contactChannels.sendPrimaryEmailVerification(project, user, callbackUrl),
  );
  const passwordReset = new PasswordResetService(users, sessions, verificationCodes, email);
  const endUserApiKeys = new EndUserApiKeyService(db);
  // Admin access tokens: an internal user manages the projects its teams own.
  const internalProjects = new InternalProjectService(db, projects);
  const invitations = new TeamInvitationService(db, teams, verificationCodes, email);
  const otpAuth = new OtpAuthService(users, verificationCodes, email, signIn);
  const passkeys = new PasskeyService(db, users, verificationCodes, signIn);
  const mfa = new MfaService(db, users, verificationCodes, signIn);
  const cliLogin = new CliLoginService(db, sessions, users, signIn);
  // OAuth sign-in: provider tokens sealed with a key derived from the server secret.
  const oauthSettings: OAuthSettings = env.oauth ?? { endpoints: {}, sharedKeys: {} };
  const tokenSealer = new TokenSealer(serverSecret);
  const oauthAccounts = new OAuthAccountService(db, users, tokenSealer);
  const oauthFlows = new OAuthFlowService(db, projects, apiKeys, accessTokens, users, oauthAccounts, signIn, oauthSettings, env.publicUrl);
  const connectedAccounts = new ConnectedAccountService(db, users, tokenSealer, oauthSettings, env.publicUrl);
  const oauthLinks = new OAuthLinkService(db, users);
  const requestAuth = new RequestAuthenticator({
    findProject: (projectId) => projects.find(projectId),
    isValidKey: (projectId, kind, key) => apiKeys.isValidKey(projectId, kind, key),
    verifyAccessToken: (token) => accessTokens.verify(token),
    managesProject: (userId, project) => internalProjects.manages(userId, project),
    loadUser: (projectId, userId) => users.find(projectId, userId),
  });
  return {
    oauthFlows,
    connectedAccounts,
    oauthLinks,
    permissions,
    teams,
    invitations,
    endUserApiKeys,
    internalProjects,
    db,
    projects,
    apiKeys,
    signingKeys,
    accessTokens,
    users,
    sessions,
    tokens,
    signIn,
    email,
    verificationCodes,
    contactChannels,
    notificationPreferences,
    passwordAuth,
    passwordReset,
    otpAuth,
    passkeys,
    mfa,
    cliLogin,
    requestAuth,
  };
}

export type Services = ReturnType<typeof createServices>;
