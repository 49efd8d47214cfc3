import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshots } from './chromium.ts';
import { createPasswordUser, greetingOf, signInWithPassword, signOutViaPage, withDemoInChromium } from './e2e-environment.ts';

/**
 * Passkeys in a real Chromium with its virtual authenticator (DevTools protocol `WebAuthn` domain):
 * one is added in account settings, then signs the user in with no password. WebAuthn refuses IP
 * addresses as relying-party ids, so the browser uses `localhost`.
 */
const env = withDemoInChromium({ 'auth.passkey.allowSignIn': true });

async function withVirtualAuthenticator(page: Page): Promise<void> {
  const devtools = await page.context().newCDPSession(page);
  await devtools.send('WebAuthn.enable');
  await devtools.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

describe('passkeys in Chromium', () => {
  it('are added in account settings and then sign the user in', { timeout: 120_000 }, async () => {
    const shot = screenshots('passkeys');
    const grace = await createPasswordUser(env.platform, 'grace');
    const email = grace.email;
    const appUrl = env.platform.url.replace('127.0.0.1', 'localhost');
    const page = await env.browser.newPage();
    await withVirtualAuthenticator(page);
    await signInWithPassword(page, appUrl, grace);
    await expect.poll(() => greetingOf(page)).toBe(`Hello, ${email}`);

    await page.goto(`${appUrl}/handler/account-settings`);
    await page.getByRole('tab', { name: 'Passkeys' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('No passkey yet.');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('You can sign in with a passkey.');
    await shot(page, 'passkey-added');

    await signOutViaPage(page, appUrl);
    await page.goto(`${appUrl}/handler/sign-in`);
    await shot(page, 'sign-in-with-passkey');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect.poll(() => greetingOf(page)).toBe(`Hello, ${email}`);
    await shot(page, 'signed-in-with-passkey');
  });
});
