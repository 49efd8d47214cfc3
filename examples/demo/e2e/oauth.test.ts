import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownKeys } from '@gatehouse/testing/oauth-test-flow';
import { type MockProvider, startMockProvider } from '@gatehouse/testing/mock-oauth-provider';
import { screenshots } from './chromium.ts';
import { greetingOf, signOutViaPage, withDemoInChromium } from './e2e-environment.ts';

/**
 * OAuth in a real Chromium against a real OpenID provider on 127.0.0.1 (oauth2-mock-server, which
 * approves at once): "Continue with Google" goes authorize → provider → callback → the app's
 * oauth-callback page → signed in; then GitHub is connected from account settings.
 */
let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(() => mock?.stop());
const env = withDemoInChromium(
  { 'auth.oauth.providers': { google: ownKeys('google'), github: ownKeys('github') } },
  { oauth: () => ({ endpoints: { google: mock.endpoints(), github: mock.endpoints(true) }, sharedKeys: {} }) },
);

describe('OAuth in Chromium', () => {
  it('signs in with a provider, then connects a second one in account settings', { timeout: 120_000 }, async () => {
    const shot = screenshots('oauth');
    const email = `ada-${randomUUID().slice(0, 8)}@demo.test`;
    mock.state.profile = { sub: randomUUID(), email, email_verified: true, name: 'Ada Lovelace' };
    const page = await env.browser.newPage();
    await page.goto(`${env.platform.url}/handler/sign-in`);
    await shot(page, 'sign-in-with-providers');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect.poll(() => greetingOf(page), { timeout: 20_000 }).toBe('Hello, Ada Lovelace');
    // The callback page took code and state out of the URL before anything else.
    expect(page.url()).not.toMatch(/[?&](code|state)=/);
    await shot(page, 'signed-in-with-google');

    mock.state.profile = { id: 4242, login: 'ada-octo', name: 'Ada', email: null };
    mock.state.emails = [{ email, primary: true, verified: true }];
    await page.goto(`${env.platform.url}/handler/account-settings`);
    await page.getByRole('tab', { name: 'Connected accounts' }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Connected accounts' }).textContent()).toContain('Google');
    await page.getByRole('button', { name: 'Connect GitHub' }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 20_000 }).toBe('/handler/account-settings');
    await page.getByRole('tab', { name: 'Connected accounts' }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Connected accounts' }).textContent()).toContain('GitHub');
    await shot(page, 'github-connected');

    // The linked GitHub account now signs the same user in.
    await signOutViaPage(page, env.platform.url);
    await page.goto(`${env.platform.url}/handler/sign-in`);
    await page.getByRole('button', { name: 'Continue with GitHub' }).click();
    await expect.poll(() => greetingOf(page), { timeout: 20_000 }).toBe('Hello, Ada Lovelace');
  });
});
