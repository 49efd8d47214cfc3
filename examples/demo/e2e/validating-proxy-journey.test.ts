import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrismProxy, startPrismProxy } from '../../../scripts/src/packages/prism-proxy.ts';
import { closePage, screenshots } from './chromium.ts';
import { greetingOf, withDemoInChromium } from './e2e-environment.ts';

/**
 * One person's journey in Chromium through the example app and its handler pages (sign-up, account settings,
 * a team, sign-out) with every API call the app makes going through Stoplight Prism, a validating proxy no one
 * here wrote, reading the document the platform serves. The proxy must see no request or response violation,
 * and must have seen the journey's calls (a journey that bypassed it would prove nothing).
 */
const env = withDemoInChromium();
let prism: PrismProxy;

beforeAll(async () => {
  prism = await startPrismProxy(`${env.platform.url}/api/v1/openapi.json`, `${env.platform.url}/api/v1`);
}, 180_000);

afterAll(() => {
  prism?.close();
});

const generous = { timeout: 45_000 };

describe('the example app behind a validating proxy', () => {
  it('sign-up, account settings, a team and sign-out with no violation', { timeout: 300_000 }, async () => {
    const shot = screenshots('validating-proxy-journey');
    const context = await env.browser.newContext();
    const proxied: string[] = [];
    // Installed before the first page loads: the app calls its own origin's /api/v1, and each call goes to Prism
    // instead, which validates it, passes it on to the platform and validates the answer on its way back.
    await context.route(`${env.platform.url}/api/v1/**`, async (route) => {
      const url = new URL(route.request().url());
      proxied.push(`${route.request().method()} ${url.pathname}`);
      const response = await route.fetch({ url: `${prism.url}${url.pathname.slice('/api/v1'.length)}${url.search}`, timeout: 60_000 });
      await route.fulfill({ response });
    });
    const page = await context.newPage();
    try {
      const email = `proxied-${randomUUID().slice(0, 8)}@demo.test`;
      await page.goto(env.platform.url);
      const createAccount = page.getByRole('link', { name: 'Create an account' });
      await expect.poll(() => createAccount.isVisible(), generous).toBe(true);
      await createAccount.click();
      await expect.poll(() => new URL(page.url()).pathname, generous).toBe('/handler/sign-up');
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill('proxied-password-1');
      await page.getByLabel('Repeat password', { exact: true }).fill('proxied-password-1');
      await page.getByRole('button', { name: 'Sign up' }).click();
      await expect.poll(() => greetingOf(page), generous).toBe(`Hello, ${email}`);
      await shot(page, 'signed-up');

      await page.getByRole('link', { name: 'Account settings' }).click();
      await page.getByLabel('Display name', { exact: true }).fill('Proxied Person');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => page.getByRole('status').textContent(), generous).toBe('Saved.');
      await shot(page, 'account-settings');
      await page.getByRole('link', { name: 'Demo app' }).click();
      await expect.poll(() => greetingOf(page), generous).toBe('Hello, Proxied Person');

      await page.getByLabel('Team', { exact: true }).selectOption({ label: '+ Create a team…' });
      await page.getByLabel('Team name', { exact: true }).fill('Proxied team');
      await page.getByRole('button', { name: 'Create team' }).click();
      await expect.poll(() => page.getByTestId('selected-team').textContent(), generous).toBe('Current team: Proxied team');
      await shot(page, 'team-created');

      await page.getByRole('button', { name: /Proxied Person/ }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'Welcome to the demo app' }).isVisible(), generous).toBe(true);
      await shot(page, 'signed-out');

      // The journey's calls went through the proxy, and Prism received every one of them.
      expect(proxied).toEqual(
        expect.arrayContaining([
          'POST /api/v1/auth/password/sign-up',
          'GET /api/v1/users/me',
          'PATCH /api/v1/users/me',
          'POST /api/v1/teams',
          'DELETE /api/v1/auth/sessions/current',
        ]),
      );
      await expect.poll(() => prism.requestsReceived(), generous).toBeGreaterThanOrEqual(proxied.length);
      expect(prism.violations()).toEqual([]);

      // The same proxy does report a violation when there is one (this test can fail): a sign-up with no password.
      const before = prism.log().length;
      const refused = await fetch(`${prism.url}/auth/password/sign-up`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-stack-project-id': env.platform.project.project.id,
          'x-stack-access-type': 'client',
          'x-stack-publishable-client-key': env.platform.project.keys.publishable_client_key,
        },
        body: JSON.stringify({ email }),
      });
      expect(refused.status).toBe(400);
      await expect.poll(() => /Violation: request\.body/.test(prism.log().slice(before)), generous).toBe(true);
    } finally {
      await closePage(page);
    }
  });
});
