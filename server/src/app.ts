import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { contactChannelHandlers } from './modules/contact-channels/contact-channels.routes.ts';
import { notificationPreferenceHandlers } from './modules/notification-preferences/notification-preferences.routes.ts';
import { metaHandlers } from './modules/meta/meta.routes.ts';
import { otpAuthHandlers } from './modules/otp-auth/otp-auth.routes.ts';
import { oauthHandlers } from './modules/oauth/oauth.routes.ts';
import { passkeyHandlers } from './modules/passkeys/passkeys.routes.ts';
import { mfaHandlers } from './modules/mfa/mfa.routes.ts';
import { cliLoginHandlers } from './modules/cli-login/cli-login.routes.ts';
import { passwordAuthHandlers } from './modules/password-auth/password-auth.routes.ts';
import { projectHandlers } from './modules/projects/projects.routes.ts';
import { oauthTokenHandlers } from './modules/sessions/oauth-token.routes.ts';
import { sessionHandlers } from './modules/sessions/sessions.routes.ts';
import { anonymousHandlers } from './modules/sign-in/anonymous.routes.ts';
import { userHandlers } from './modules/users/users.routes.ts';
import { teamHandlers } from './modules/teams/teams.routes.ts';
import { teamInvitationHandlers } from './modules/teams/team-invitations.routes.ts';
import { endUserApiKeyHandlers } from './modules/end-user-api-keys/end-user-api-keys.routes.ts';
import { internalHandlers } from './modules/internal/internal.routes.ts';
import { permissionHandlers } from './modules/permissions/permissions.routes.ts';
import { scheduleExpiredRowsCleanup } from './modules/maintenance/expired-rows-cleanup.ts';
import { apiReferencePlugin } from './plugins/api-reference.ts';
import { bodyParsersPlugin } from './plugins/body-parsers.ts';
import { corsPlugin } from './plugins/cors.ts';
import { errorHandlerPlugin } from './plugins/error-handler.ts';
import { type ExampleAppOptions, exampleAppPlugin } from './plugins/example-app.ts';
import { rateLimitsPlugin } from './plugins/rate-limits.ts';
import { responseHeadersPlugin } from './plugins/response-headers.ts';
import type { RateLimits } from './config/rate-limits.ts';
import type { OperationHandlers } from './routing/operation-handlers.ts';
import { registerOperations } from './routing/register-operations.ts';
import type { Services } from './services.ts';
import './routing/fastify-augmentation.ts';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

export type AppOptions = {
  services: Services;
  logger?: FastifyServerOptions['logger'];
  trustProxy?: FastifyServerOptions['trustProxy'];
  /** null turns rate limits off (tests that are not about them). */
  rateLimits: RateLimits | null;
  /** A built example app served beside the API (see plugins/example-app.ts). */
  exampleApp?: ExampleAppOptions;
  /** Deletes expired rows this often while the app runs (see modules/maintenance); off when absent or 0. */
  expiredRowsCleanupIntervalMillis?: number;
};

/** The HTTP app: plugins for the cross-cutting concerns, then every operation of the spec. */
export async function buildApp(options: AppOptions) {
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: options.trustProxy ?? false,
    genReqId: () => randomUUID(),
    // Profile images may be data URLs of up to 1,000,000 characters.
    bodyLimit: 4 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 500 },
  });
  app.decorate('services', options.services);
  app.decorateRequest('auth', null);

  await app.register(corsPlugin);
  await app.register(responseHeadersPlugin);
  await app.register(errorHandlerPlugin);
  await app.register(bodyParsersPlugin);
  // The OAuth flow's cookie (PKCE verifier of the provider round trip).
  await app.register(cookie);
  await app.register(apiReferencePlugin);
  await app.register(rateLimitsPlugin);

  const handlers: OperationHandlers = {
    ...metaHandlers(),
    ...projectHandlers(options.services),
    ...userHandlers(options.services),
    ...sessionHandlers(options.services),
    ...oauthTokenHandlers(options.services),
    ...passwordAuthHandlers(options.services),
    ...anonymousHandlers(options.services),
    ...otpAuthHandlers(options.services),
    ...oauthHandlers(options.services),
    ...passkeyHandlers(options.services),
    ...mfaHandlers(options.services),
    ...cliLoginHandlers(options.services),
    ...contactChannelHandlers(options.services),
    ...notificationPreferenceHandlers(options.services),
    ...teamHandlers(options.services),
    ...teamInvitationHandlers(options.services),
    ...endUserApiKeyHandlers(options.services),
    ...internalHandlers(options.services),
    ...permissionHandlers(options.services),
  };
  registerOperations(app, handlers, options.services.requestAuth, options.rateLimits);
  if (options.exampleApp) await app.register(exampleAppPlugin, options.exampleApp);
  if (options.expiredRowsCleanupIntervalMillis) {
    const cleanup = scheduleExpiredRowsCleanup(options.services.db, {
      intervalMillis: options.expiredRowsCleanupIntervalMillis,
      log: app.log,
    });
    app.addHook('onClose', () => cleanup.stop());
  }
  return app;
}
