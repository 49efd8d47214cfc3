import { accessTokensModule } from './authentication/access-tokens/index.ts';
import { aiChatModule } from './administration/ai-chat/index.ts';
import { auditLogModule } from './administration/audit-log/index.ts';
import { auditLogApiModule } from './administration/audit-log-api/index.ts';
import { analyticsModule } from './administration/analytics/index.ts';
import { apiKeysModule } from './platform/project-keys/index.ts';
import { botChallengesModule } from './authentication/bot-challenges/index.ts';
import { cacheInvalidationModule } from './platform/cache-invalidation/index.ts';
import { cliLoginModule } from './authentication/cli-login/index.ts';
import { customClaimsModule } from './authentication/custom-claims/index.ts';
import { contactChannelsModule } from './identity/contact-channels/index.ts';
import { dataVaultModule } from './identity/data-vault/index.ts';
import { healthModule } from './administration/health/index.ts';
import { rateLimitCountersModule } from './platform/rate-limit-counters/index.ts';
import { emailModule } from './messaging/email/index.ts';
import { emailSendingModule } from './messaging/send-email/index.ts';
import { endUserApiKeysModule } from './identity/user-api-keys/index.ts';
import { eventsModule } from './platform/events/index.ts';
import { internalModule } from './administration/admin-api/index.ts';
import { maintenanceModule } from './administration/maintenance/index.ts';
import { metaModule } from './administration/meta/index.ts';
import { prometheusMetricsModule } from './administration/prometheus-metrics/index.ts';
import { mfaModule } from './authentication/mfa/index.ts';
import { notificationPreferencesModule } from './messaging/notification-preferences/index.ts';
import { oauthModule } from './authentication/oauth/index.ts';
import { oauthProviderModule } from './authentication/oauth-provider/index.ts';
import { otpAuthModule } from './authentication/otp-auth/index.ts';
import { paymentsModule } from './billing/payments/index.ts';
import { passkeysModule } from './authentication/passkeys/index.ts';
import { passwordAuthModule } from './authentication/password-auth/index.ts';
import { permissionsModule } from './organisations/permissions/index.ts';
import { projectsModule } from './platform/projects/index.ts';
import { requestAuthModule } from './administration/admin-request-auth/index.ts';
import { sessionsModule } from './authentication/sessions/index.ts';
import { scimModule } from './administration/scim/index.ts';
import { ssoSetupModule } from './administration/sso-setup/index.ts';
import { signInModule } from './authentication/sign-in/index.ts';
import { signInAlertsModule } from './authentication/sign-in-alerts/index.ts';
import { signUpRulesModule } from './authentication/sign-up-rules/index.ts';
import { signingKeysModule } from './authentication/signing-keys/index.ts';
import { ssoModule } from './authentication/sso/index.ts';
import { teamsModule } from './organisations/teams/index.ts';
import { usersModule } from './identity/users/index.ts';
import { verificationCodesModule } from './authentication/verification-codes/index.ts';
import { webhooksModule } from './messaging/webhooks/index.ts';

/**
 * Every feature of the server, once. The wiring (services.ts, app.ts) creates them in the order
 * their `requires` give; adding a feature is its folder, its spec file and one line here.
 */
export const modules = [
  cacheInvalidationModule,
  eventsModule,
  auditLogModule,
  signingKeysModule,
  botChallengesModule,
  projectsModule,
  apiKeysModule,
  verificationCodesModule,
  emailModule,
  usersModule,
  signUpRulesModule,
  accessTokensModule,
  sessionsModule,
  signInModule,
  permissionsModule,
  teamsModule,
  customClaimsModule,
  contactChannelsModule,
  notificationPreferencesModule,
  emailSendingModule,
  signInAlertsModule,
  passwordAuthModule,
  otpAuthModule,
  passkeysModule,
  mfaModule,
  cliLoginModule,
  oauthModule,
  ssoModule,
  oauthProviderModule,
  endUserApiKeysModule,
  paymentsModule,
  internalModule,
  requestAuthModule,
  metaModule,
  maintenanceModule,
  webhooksModule,
  auditLogApiModule,
  scimModule,
  ssoSetupModule,
  dataVaultModule,
  healthModule,
  rateLimitCountersModule,
  analyticsModule,
  prometheusMetricsModule,
  aiChatModule,
] as const;
