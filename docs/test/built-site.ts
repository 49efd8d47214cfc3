import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { ensureDocsBuilt } from '../../scripts/src/build/build-docs.ts';
import { docsSitePlugin } from '../../server/src/plugins/docs-site.ts';
import { platformRouterOptions } from '../../server/src/plugins/router-options.ts';

/** Every `.html` page of the built site, as its path under `/docs/` (`guide/react.html`), without 404.html. */
export function builtPages(dist: string): string[] {
  const pages: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'assets') visit(path);
      } else if (entry.name.endsWith('.html') && entry.name !== '404.html') pages.push(relative(dist, path));
    }
  };
  visit(dist);
  return pages.sort();
}

export const readPage = (dist: string, page: string) => readFileSync(join(dist, page), 'utf8');

/**
 * The built site served as the platform serves it (plugins/docs-site.ts, the platform's router options) on a random loopback port:
 * builds it first when a page, sample or the config changed since the last build.
 */
export async function serveBuiltSite(): Promise<{ dist: string; url: string; app: FastifyInstance }> {
  const dist = await ensureDocsBuilt();
  const app = Fastify({ routerOptions: platformRouterOptions });
  await app.register(docsSitePlugin, { distDir: dist });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { dist, url: address, app };
}
