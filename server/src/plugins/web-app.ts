import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { routerErrorReply } from './error-handler.ts';
import { isMachinePath, routerFailureOf } from './machine-paths.ts';

/** What a web app needs to talk to the platform; all of it is public (a publishable key). */
export type WebAppConfig = {
  projectId: string;
  publishableClientKey: string;
  /** The dashboard's: how its payments page loads Stripe's embedded Connect components (when Stripe mode is on). */
  stripe?: { publishableKey: string; connectJsUrl: string };
};

export type WebAppOptions = {
  /** The built app (e.g. `examples/demo/dist`, `dashboard/dist`). */
  distDir: string;
  /** Read at every request, so a test can point the app at a project created after start. */
  config: () => WebAppConfig;
};

/**
 * Serves a built single-page app from the platform's own port under `mount` (`/` for the example
 * app, `/dashboard/` for the dashboard): its files, `<mount>gatehouse-config.js` (project id and
 * publishable key as a global), and `index.html` for every other GET below the mount, so client-side
 * routes such as `/handler/sign-up` load on a refresh. Machine paths (`/api/…`, `/.well-known/…`, see
 * machine-paths.ts) and missing files keep the answers the API-only server gives.
 */
export const webAppPlugin = fp(async (app: FastifyInstance, options: WebAppOptions & { mount: string }) => {
  const mount = options.mount.endsWith('/') ? options.mount : `${options.mount}/`;
  const indexFile = join(options.distDir, 'index.html');
  if (!existsSync(indexFile)) throw new Error(`The web app for ${mount} is not built: ${indexFile} is missing`);
  // Several apps share the reply's sendFile decorator; the page itself is served from memory.
  const index = readFileSync(indexFile);
  // Loaded only by a server that serves a web app: an API-only start (EXAMPLE_APP_DIR="" DASHBOARD_DIR="") never needs it (issue #20).
  const { default: fastifyStatic } = await import('@fastify/static');
  // `preCompressed`: a file's `.br` or `.gz` beside it (written at build time) is sent to a browser that accepts it.
  await app.register(fastifyStatic, {
    root: options.distDir,
    prefix: mount,
    wildcard: false,
    index: false,
    decorateReply: false,
    preCompressed: true,
    // The answer depends on Accept-Encoding: a shared cache must not hand the gzip copy to a client that did not ask for it.
    setHeaders: (response) => response.setHeader('vary', 'accept-encoding'),
  });

  app.get(`${mount}gatehouse-config.js`, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(`window.GATEHOUSE_CONFIG = ${JSON.stringify(options.config())};\n`),
  );

  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    if (isMachinePath(request.url)) {
      // What the API-only server answers: the router's refusal (SCHEMA_ERROR), else 404 or 405.
      const failure = routerFailureOf(request.method, request.url);
      return failure ? routerErrorReply(failure, request, reply) : reply.callNotFound();
    }
    // A missing file (a stale asset name) is a 404, not the page.
    if (/\.[a-z0-9]+$/i.test(request.url.split('?')[0]!)) return reply.callNotFound();
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(index);
  };
  app.get(`${mount}*`, page);
  if (mount !== '/') app.get(mount.slice(0, -1), page);
});
