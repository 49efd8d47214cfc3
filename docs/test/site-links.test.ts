import { existsSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sidebar } from '../.vitepress/sidebar.ts';
import { builtPages, readPage, serveBuiltSite } from './built-site.ts';

/**
 * The built site's links: every internal link (pages, assets, anchors) resolves to a file and, with a
 * `#fragment`, to an element of that page with that id; every page is in the sidebar and reachable by
 * links from the home page. The server serves the pages (at `/docs` too) and answers 404 for a
 * page that does not exist.
 */
let site: { dist: string; url: string; app: FastifyInstance };
beforeAll(async () => {
  site = await serveBuiltSite();
}, 600_000);
afterAll(async () => {
  await site?.app.close();
});

/** Internal targets of a page's `href`/`src`, as paths under `/docs/` with their fragment. */
function internalLinks(page: string, html: string): Array<{ file: string; fragment: string | undefined; raw: string }> {
  const links: Array<{ file: string; fragment: string | undefined; raw: string }> = [];
  for (const match of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
    const raw = match[1]!.replace(/&amp;/g, '&');
    if (/^[a-z]+:/i.test(raw) || raw.startsWith('//')) continue;
    const [pathPart, fragment] = raw.split('#') as [string, string | undefined];
    // `/api/v1/docs` (pathname:// in the sources) is the server's own reference, outside the site.
    if (pathPart.startsWith('/api/')) continue;
    let path: string;
    if (pathPart === '') path = page;
    else if (pathPart.startsWith('/docs/')) path = pathPart.slice('/docs/'.length);
    else if (pathPart.startsWith('/')) path = `outside-the-site${pathPart}`;
    else path = posix.normalize(posix.join(posix.dirname(page), pathPart));
    if (path === '' || path.endsWith('/')) path += 'index.html';
    links.push({ file: decodeURIComponent(path.split('?')[0]!), fragment: fragment ? decodeURIComponent(fragment) : undefined, raw });
  }
  return links;
}

describe('the built documentation site', () => {
  it('has no broken internal link or anchor', () => {
    const broken: string[] = [];
    const pages = builtPages(site.dist);
    expect(pages.length).toBeGreaterThan(20);
    for (const page of pages) {
      const html = readPage(site.dist, page);
      for (const link of internalLinks(page, html)) {
        if (!existsSync(join(site.dist, link.file))) {
          broken.push(`${page}: ${link.raw}`);
          continue;
        }
        if (link.fragment && link.file.endsWith('.html')) {
          const target = readPage(site.dist, link.file);
          if (!target.includes(`id="${link.fragment}"`)) broken.push(`${page}: ${link.raw} (no element with that id)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('lists every page in the sidebar, and every page is reachable by links from the home page', () => {
    const pages = builtPages(site.dist);
    const inSidebar = new Set(
      sidebar
        .flatMap((group) => group.items ?? [])
        .map((item) => {
          const link = item.link ?? '';
          return link.endsWith('/') ? `${link.slice(1)}index.html` : `${link.slice(1)}.html`;
        }),
    );
    expect(pages.filter((page) => !inSidebar.has(page))).toEqual([]);
    expect([...inSidebar].filter((page) => !pages.includes(page))).toEqual([]);

    const reached = new Set(['index.html']);
    const queue = ['index.html'];
    while (queue.length > 0) {
      const page = queue.shift()!;
      for (const link of internalLinks(page, readPage(site.dist, page))) {
        if (link.file.endsWith('.html') && !reached.has(link.file) && existsSync(join(site.dist, link.file))) {
          reached.add(link.file);
          queue.push(link.file);
        }
      }
    }
    expect(pages.filter((page) => !reached.has(page))).toEqual([]);
  });

  it('is served at /docs/ by the platform: pages, compressed copies, /docs itself, a 404 for a missing page', async () => {
    const home = await fetch(`${site.url}/docs/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('Gatehouse');
    const guide = await fetch(`${site.url}/docs/guide/quick-start.html`, { headers: { 'accept-encoding': 'br' } });
    expect(guide.status).toBe(200);
    expect(guide.headers.get('content-encoding')).toBe('br');
    // The platform ignores a trailing slash: /docs is the home page too (its links and assets are absolute).
    const bare = await fetch(`${site.url}/docs`);
    expect(bare.status).toBe(200);
    expect(await bare.text()).toContain('/docs/assets/');
    expect((await fetch(`${site.url}/docs/guide/no-such-page.html`)).status).toBe(404);
  });
});
