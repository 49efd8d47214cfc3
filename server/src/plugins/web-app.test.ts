import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '@gatehouse/testing/test-context';

/** Two built apps (stand-ins with an index page and an asset each), served as `pnpm start` serves the example app and the dashboard. */
function fakeBuild(root: string, name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), `<!doctype html><title>${name}</title>`);
  writeFileSync(join(dir, 'assets', 'app.js'), `console.log(${JSON.stringify(name)});`);
  // A chunk with the compressed copies the build writes beside it (scripts/src/build/precompress.ts).
  const chunk = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, index) => `${name}-word-${index}`))};\n`;
  writeFileSync(join(dir, 'assets', 'chunk.js'), chunk);
  writeFileSync(join(dir, 'assets', 'chunk.js.gz'), gzipSync(chunk, { level: 9 }));
  writeFileSync(join(dir, 'assets', 'chunk.js.br'), brotliCompressSync(chunk));
  return dir;
}

describe('web apps on the platform port', () => {
  let root: string;
  let context: TestContext;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'gatehouse-web-apps-'));
    context = await createTestContext({
      exampleApp: { distDir: fakeBuild(root, 'example'), config: () => ({ projectId: 'demo', publishableClientKey: 'pck_demo' }) },
      dashboard: { distDir: fakeBuild(root, 'dashboard'), config: () => ({ projectId: 'internal', publishableClientKey: 'pck_internal' }) },
    });
  });
  afterAll(async () => {
    await context.close();
    rmSync(root, { recursive: true, force: true });
  });
  const get = (url: string) => context.app.inject({ url });

  it('serves the dashboard under /dashboard and the example app everywhere else, each with its own config', async () => {
    for (const url of ['/dashboard', '/dashboard/', '/dashboard/projects/7d9c0a52-1ad4-4a37-a2c7-d5e1c2c11e19/users']) {
      const page = await get(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain('<title>dashboard</title>');
    }
    for (const url of ['/', '/handler/sign-in', '/protected']) expect((await get(url)).body, url).toContain('<title>example</title>');
    expect((await get('/dashboard/assets/app.js')).body).toContain('"dashboard"');
    expect((await get('/assets/app.js')).body).toContain('"example"');
    const dashboardConfig = await get('/dashboard/gatehouse-config.js');
    expect(dashboardConfig.body).toBe('window.GATEHOUSE_CONFIG = {"projectId":"internal","publishableClientKey":"pck_internal"};\n');
    expect(dashboardConfig.headers['cache-control']).toBe('no-store');
    expect((await get('/gatehouse-config.js')).body).toContain('"projectId":"demo"');
  });

  it('sends the compressed copy of a file to a browser that accepts it, the file itself to one that does not', async () => {
    const raw = await get('/assets/chunk.js');
    expect(raw.headers['content-encoding']).toBeUndefined();
    expect(raw.body).toContain('example-word-399');
    const gzip = await context.app.inject({ url: '/assets/chunk.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['content-type']).toMatch(/javascript/);
    expect(gzip.headers.vary).toMatch(/accept-encoding/i);
    expect(gzip.rawPayload.length).toBeLessThan(raw.rawPayload.length / 3);
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(raw.body);
    const brotli = await context.app.inject({ url: '/dashboard/assets/chunk.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toContain('dashboard-word-399');
  });

  it('answers 404 for a missing file and for unknown API paths instead of the page', async () => {
    expect((await get('/dashboard/assets/index-stale.js')).statusCode).toBe(404);
    expect((await get('/assets/gone.css')).statusCode).toBe(404);
    expect((await get('/api/v1/nothing-here')).statusCode).toBe(404);
  });
});
