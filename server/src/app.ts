import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { apiReferencePlugin } from './plugins/api-reference.ts';
import { bodyParsersPlugin } from './plugins/body-parsers.ts';
import { corsPlugin } from './plugins/cors.ts';
import { errorHandlerPlugin, routerErrorReply } from './plugins/error-handler.ts';
import { type DocsSiteOptions, docsSitePlugin } from './plugins/docs-site.ts';
import { type WebAppOptions, webAppPlugin } from './plugins/web-app.ts';
import { rateLimitsPlugin } from './plugins/rate-limits.ts';
import { requestMetricsPlugin } from './plugins/request-metrics.ts';
import { responseHeadersPlugin } from './plugins/response-headers.ts';
import type { RateLimits } from './config/rate-limits.ts';
import { scheduleJob } from './kernel/background-job.ts';
import type { OperationHandlers } from './routing/operation-handlers.ts';
import { lazySerializerFactory } from './routing/lazy-serializer.ts';
import { registerOperations } from './routing/register-operations.ts';
import { platformRouterOptions } from './plugins/router-options.ts';
import type { Server, Services } from './services.ts';
import './routing/fastify-augmentation.ts';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

export type AppOptions = {
  /** The wired modules (services.ts): their services, handlers and jobs. */
  server: Server;
  logger?: FastifyServerOptions['logger'];
  trustProxy?: FastifyServerOptions['trustProxy'];
  /** null turns rate limits off (tests that are not about them). */
  rateLimits: RateLimits | null;
  /** A built example app served beside the API at `/` (see plugins/web-app.ts). */
  exampleApp?: WebAppOptions;
  /** The built dashboard served at `/dashboard` (its config names the `internal` project). */
  dashboard?: WebAppOptions;
  /** The built documentation site served at `/docs`. */
  docs?: DocsSiteOptions;
  /**
   * Prefixes every rate-limit key: apps with the same namespace on one database share their counters
   * (the instances of one deployment; the server leaves it empty), others do not (test files).
   */
  rateLimitNamespace?: string;
  /** Runs the modules' background jobs while the app runs (the server does; tests do not). */
  backgroundJobs?: boolean;
};

/** The HTTP app: plugins for the cross-cutting concerns, then every operation of the spec (each served by a module). */
export async function buildApp(options: AppOptions) {
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: options.trustProxy ?? false,
    genReqId: () => randomUUID(),
    // Profile images may be data URLs of up to 1,000,000 characters.
    bodyLimit: 4 * 1024 * 1024,
    routerOptions: platformRouterOptions,
    // A path the router cannot read (a bad `%` escape, a parameter over 500 characters) is SCHEMA_ERROR in the envelope.
    frameworkErrors: routerErrorReply,
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory } },
  });
  app.decorate('services', options.server.services);
  app.decorateRequest('auth', null);

  await app.register(corsPlugin);
  await app.register(responseHeadersPlugin);
  await app.register(requestMetricsPlugin, { observe: options.server.services.prometheusMetrics.observeRequest });
  await app.register(errorHandlerPlugin);
  await app.register(bodyParsersPlugin);
  // The OAuth flow's cookie (PKCE verifier of the provider round trip).
  await app.register(cookie);
  await app.register(apiReferencePlugin);
  const counter = options.server.services.rateLimitCounter;
  const namespace = options.rateLimitNamespace ? `${options.rateLimitNamespace}:` : '';
  await app.register(rateLimitsPlugin, {
    counter: {
      hit: (key, windowMs) => counter.hit(namespace + key, windowMs),
      peek: (key) => counter.peek(namespace + key),
      forget: (key) => counter.forget(namespace + key),
      release: (key) => counter.release(namespace + key),
    },
  });
  // The shared counter's connection (Redis) closes with the app, after the requests in flight.
  app.addHook('onClose', async () => {
    await counter.close?.();
  });

  registerOperations(app, options.server.handlers as OperationHandlers, options.server.services.requestAuth, options.rateLimits);
  if (options.exampleApp) await app.register(webAppPlugin, { ...options.exampleApp, mount: '/' });
  if (options.dashboard) {
    const { config } = options.dashboard;
    const stripe = options.server.services.stripe;
    // The payments page's embedded Stripe components load with the platform's publishable key (public).
    await app.register(webAppPlugin, {
      ...options.dashboard,
      config: () => {
        const settings = stripe.dashboardSettings();
        return settings ? { ...config(), stripe: settings } : config();
      },
      mount: '/dashboard/',
    });
  }
  if (options.docs) await app.register(docsSitePlugin, options.docs);
  if (options.backgroundJobs) {
    const running = options.server.jobs.map((job) => scheduleJob(job, app.log));
    app.addHook('onClose', async () => {
      await Promise.all(running.map((job) => job.stop()));
    });
  }
  return app;
}
