import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The built documentation site (`docs/.vitepress/dist`, a folder of static pages). */
export type DocsSiteOptions = { distDir: string };

/**
 * Serves the documentation site at `/docs/`: plain static pages (each page is its own `.html`, with
 * `index.html` for a folder), so unlike the web apps there is no fallback page: a missing file is a 404.
 * The home page is its own route: the platform ignores trailing slashes, so `/docs/` is looked up as
 * `/docs`, which the static files' `/docs/*` does not match. Links and assets are absolute (`/docs/...`).
 *
 * The site may still be building when the platform starts (`pnpm start` builds it beside the running server on a
 * fresh clone, so that the first start does not wait for it): until its `index.html` is there, `/docs` answers
 * 503 with a page saying so and a `Retry-After`, then serves the site without a restart.
 */
export const docsSitePlugin = fp(async (app: FastifyInstance, options: DocsSiteOptions) => {
  const indexFile = join(options.distDir, 'index.html');
  let built = existsSync(indexFile);
  if (!built) app.log.warn({ indexFile }, 'The documentation site is not built yet: /docs answers 503 until it is');
  app.addHook('onRequest', async (request, reply) => {
    if (built || !isDocsPath(request.url)) return;
    built = existsSync(indexFile);
    if (!built) return reply.code(503).header('retry-after', '5').type('text/html; charset=utf-8').send(buildingPage);
  });
  const { default: fastifyStatic } = await import('@fastify/static');
  await app.register(fastifyStatic, {
    root: options.distDir,
    prefix: '/docs/',
    index: ['index.html'],
    decorateReply: false,
    // The build writes a `.br` and a `.gz` copy beside each file (scripts/src/build/precompress.ts).
    preCompressed: true,
    setHeaders: (response, path) => {
      response.setHeader('vary', 'accept-encoding');
      // Hashed assets never change; pages are checked again at every visit.
      response.setHeader('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  let home: Buffer | undefined;
  app.get('/docs', async (_request, reply) => {
    home ??= readFileSync(indexFile);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(home);
  });
});

const isDocsPath = (url: string) => url === '/docs' || url.startsWith('/docs/') || url.startsWith('/docs?');

const buildingPage =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="5">' +
  '<title>Documentation</title></head><body><main><h1>The documentation is being built</h1>' +
  '<p>This page reloads by itself in a few seconds.</p></main></body></html>';
