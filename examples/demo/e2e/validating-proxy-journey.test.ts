import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrismProxy, startPrismProxy } from '../../../scripts/src/packages/prism-proxy.ts';
import { closePage, screenshots } from './chromium.ts';
import { greetingOf, withDemoInChromium } from './e2e-environment.ts';

/**
 * One person's journey in Chromium through the example app and its handler pages (sign-up, account settings,
 * sign-out, sign-in) with every API call the app makes going through Stoplight Prism, a validating proxy no one
 * here wrote, reading the document the platform serves: the app's API base is the proxy, and the proxy must see
 * no request or response violation. The routing is installed before the first page loads.
 */
const env = withDemoInChromium();
let prism: PrismProxy;

beforeAll(async () => {
  prism = await startPrismProxy(`${env.platform.url}/api/v1/openapi.json`, `${env.platform.url}/api/v1`);
}, 180_000);

afterAll(() => {
  prism?.close();
});

describe('the example app behind a validating proxy', () => {
  it('sign-up, account settings, sign-out and sign-in with no violation', { timeout: 240_000 }, async () => {
    const shot = screenshots('validating-proxy-journey');
    const context = await env.browser.newContext();
    const proxied: string[] = [];
    // The app calls its own origin's /api/v1; each call goes to Prism instead, which passes it on to the platform.
    await context.route(`${env.platform.url}/api/v1/**`, async (route) => {
      const url = new URL(route.request().url());
      proxied.push(`${route.request().method()} ${url.pathname}`);
      const response = await route.fetch({ url: `${prism.url}${url.pathname.slice('/api/v1'.length)}${url.search}` });
      await route.fulfill({ response });
    });
    const page = await context.newPage();
    try {
      const email = `proxied-${randomUUID().slice(0, 8)}@demo.test`;
      await page.goto(env.platform.url);
      const createAccount = page.getByRole('link', { name: 'Create an account' });
      await expect.poll(() => createAccount.isVisible(), { timeout: 30_000 }).toBe(true);
      await createAccount.click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/handler/sign-up');
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill('proxied-password-1');
      await page.getByLabel('Repeat password', { exact: true }).fill('proxied-password-1');
      await page.getByRole('button', { name: 'Sign up' }).click();
      await expect.poll(() => greetingOf(page), { timeout: 30_000 }).toBe(`Hello, ${email}`);
      await shot(page, 'signed-up');

      await page.getByRole('link', { name: 'Account settings' }).click();
      await page.getByLabel('Display name', { exact: true }).fill('Proxied Person');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => page.getByRole('status').textContent(), { timeout: 30_000 }).toBe('Saved.');
      await shot(page, 'account-settings');
      await page.getByRole('link', { name: 'Demo app' }).click();
      await expect.poll(() => greetingOf(page), { timeout: 30_000 }).toBe('Hello, Proxied Person');

      await page.getByRole('button', { name: /Proxied Person/ }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'Welcome to the demo app' }).isVisible(), { timeout: 30_000 }).toBe(true);
      await shot(page, 'signed-out');

      // Sign in from the app's own link: first a wrong password (a refusal through the proxy), then the right one.
      await page.getByRole('link', { name: 'Sign in' }).first().click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/handler/sign-in');
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill('not-the-password-1');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 30_000 }).toBe('Wrong e-mail or password.');
      await page.getByLabel('Password', { exact: true }).fill('proxied-password-1');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect.poll(() => greetingOf(page), { timeout: 30_000 }).toBe('Hello, Proxied Person');
      await shot(page, 'signed-in');

      expect(proxied).toEqual(
        expect.arrayContaining([
          'POST /api/v1/auth/password/sign-up',
          'PATCH /api/v1/users/me',
          'DELETE /api/v1/auth/sessions/current',
          'POST /api/v1/auth/password/sign-in',
          'GET /api/v1/users/me',
        ]),
      );
      await expect.poll(() => prism.requestsReceived()).toBeGreaterThanOrEqual(proxied.length);
      expect(prism.violations()).toEqual([]);
    } finally {
      await closePage(page);
    }
  });
});
