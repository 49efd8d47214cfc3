import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../examples/demo/e2e/chromium.ts';

/**
 * `useUser({ or: 'redirect' })` in a real Chromium, in the app shape the README shows: one Suspense
 * around the whole app. The redirect happens while the app mounts, so the suspended tree was never
 * committed and nothing in it listens to the URL; the page must still move on to the sign-in page
 * (issue #29: it stayed on "Loading…" for good). No platform is needed: signed out, the SDK asks nothing.
 */
let server: Server;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [new URL('../testing/redirect-under-suspense.fixture.tsx', import.meta.url).pathname],
    bundle: true,
    format: 'esm',
    write: false,
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"development"' },
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0]?.contents ?? new Uint8Array();
  server = createServer((request, response) => {
    if (request.url === '/fixture.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      return;
    }
    // Every other path is the app (it routes on the client).
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><html lang="en"><title>fixture</title><div id="root"></div><script type="module" src="/fixture.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe("useUser({ or: 'redirect' }) while the app mounts under one Suspense", () => {
  for (const router of ['gatehouse', 'own'] as const) {
    it(`shows the sign-in page after the redirect (${router === 'gatehouse' ? "the package's navigation" : 'a router that moves later'})`, async () => {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      // React's warnings too (a component suspended by an uncached promise, a recovered render error).
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
      });
      await page.addInitScript((choice) => {
        (window as unknown as { ROUTER: string }).ROUTER = choice;
      }, router);
      await page.goto(`${origin}/protected?tab=1`);
      await expect
        .poll(
          () =>
            page
              .locator('h1')
              .textContent({ timeout: 1_000 })
              .catch(() => null),
          { timeout: 5_000 },
        )
        .toBe('Sign-in page');
      const url = new URL(page.url());
      expect(url.pathname).toBe('/handler/sign-in');
      expect(url.searchParams.get('after_auth_return_to')).toBe(`${origin}/protected?tab=1`);
      // The redirect replaced the visited entry (about:blank, then this page): Back does not come back to it.
      expect(await page.evaluate(() => window.history.length)).toBe(2);
      expect(errors).toEqual([]);
      await page.close();
    });
  }
});
