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
 */
export const docsSitePlugin = fp(async (app: FastifyInstance, options: DocsSiteOptions) => {
  const indexFile = join(options.distDir, 'index.html');
  if (!existsSync(indexFile)) throw new Error(`The documentation site is not built: ${indexFile} is missing`);
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
  const home = readFileSync(indexFile);
  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(home));
});
