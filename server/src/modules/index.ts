import { accessTokensModule } from './access-tokens/index.ts';
import { aiChatModule } from './ai-chat/index.ts';
import { auditLogModule } from './audit-log/index.ts';
import { auditLogApiModule } from './audit-log-api/index.ts';
import { analyticsModule } from './analytics/index.ts';
import { apiKeysModule } from './api-keys/index.ts';
import { botChallengesModule } from './bot-challenges/index.ts';
import { cacheInvalidationModule } from './cache-invalidation/index.ts';
import { cliLoginModule } from './cli-login/index.ts';
import { contactChannelsModule } from './contact-channels/index.ts';
import { dataVaultModule } from './data-vault/index.ts';
import { healthModule } from './health/index.ts';
import { rateLimitCountersModule } from './rate-limit-counters/index.ts';
import { emailModule } from './email/index.ts';
import { emailSendingModule } from './email-sending/index.ts';
import { endUserApiKeysModule } from './end-user-api-keys/index.ts';
import { eventsModule } from './events/index.ts';
import { internalModule } from './internal/index.ts';
import { maintenanceModule } from './maintenance/index.ts';
import { metaModule } from './meta/index.ts';
import { prometheusMetricsModule } from './prometheus-metrics/index.ts';
import { mfaModule } from './mfa/index.ts';
import { notificationPreferencesModule } from './notification-preferences/index.ts';
import { oauthModule } from './oauth/index.ts';
import { oauthProviderModule } from './oauth-provider/index.ts';
import { otpAuthModule } from './otp-auth/index.ts';
import { paymentsModule } from './payments/index.ts';
import { passkeysModule } from './passkeys/index.ts';
import { passwordAuthModule } from './password-auth/index.ts';
import { permissionsModule } from './permissions/index.ts';
import { projectsModule } from './projects/index.ts';
import { requestAuthModule } from './request-auth/index.ts';
import { sessionsModule } from './sessions/index.ts';
import { scimModule } from './scim/index.ts';
import { signInModule } from './sign-in/index.ts';
import { signUpRulesModule } from './sign-up-rules/index.ts';
import { signingKeysModule } from './signing-keys/index.ts';
import { ssoModule } from './sso/index.ts';
import { teamsModule } from './teams/index.ts';
import { usersModule } from './users/index.ts';
import { verificationCodesModule } from './verification-codes/index.ts';
import { webhooksModule } from './webhooks/index.ts';

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
  contactChannelsModule,
  notificationPreferencesModule,
  emailSendingModule,
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
  dataVaultModule,
  healthModule,
  rateLimitCountersModule,
  analyticsModule,
  prometheusMetricsModule,
  aiChatModule,
] as const;
