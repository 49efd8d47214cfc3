import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { docsSitePlugin } from './docs-site.ts';
import { platformRouterOptions } from './router-options.ts';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function serve(distDir: string) {
  const app = Fastify({ routerOptions: platformRouterOptions, logger: false });
  app.get('/api/v1/health', async () => ({ ok: true }));
  await app.register(docsSitePlugin, { distDir });
  await app.ready();
  return app;
}

describe('the documentation site while it is still being built', () => {
  it('answers 503 with a self-reloading page, leaves other paths alone, then serves the site once built, without a restart', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'gatehouse-docs-'));
    folders.push(dist);
    const app = await serve(dist);
    for (const url of ['/docs', '/docs/', '/docs/guide/react.html']) {
      const waiting = await app.inject({ url });
      expect(waiting.statusCode, url).toBe(503);
      expect(waiting.headers['retry-after']).toBe('5');
      expect(waiting.body).toContain('The documentation is being built');
    }
    expect((await app.inject({ url: '/api/v1/health' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/docsy' })).statusCode).toBe(404);

    mkdirSync(join(dist, 'guide'));
    writeFileSync(join(dist, 'guide', 'react.html'), '<h1>React</h1>');
    writeFileSync(join(dist, 'index.html'), '<h1>Gatehouse docs</h1>');
    const home = await app.inject({ url: '/docs/' });
    expect(home.statusCode).toBe(200);
    expect(home.body).toBe('<h1>Gatehouse docs</h1>');
    const page = await app.inject({ url: '/docs/guide/react.html' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe('<h1>React</h1>');
    await app.close();
  });
});
