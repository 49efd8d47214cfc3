import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshots } from './chromium.ts';
import { type DemoPlatform, startDemoPlatform } from './demo-platform.ts';

/**
 * Passkeys in a real Chromium with its virtual authenticator (DevTools protocol `WebAuthn` domain):
 * one is added in account settings, then signs the user in with no password. WebAuthn refuses IP
 * addresses as relying-party ids, so the browser uses `localhost`.
 */
let platform: DemoPlatform;
let browser: Browser;
let appUrl: string;

beforeAll(async () => {
  [platform, browser] = await Promise.all([startDemoPlatform({ 'auth.passkey.allowSignIn': true }), launchChromium()]);
  appUrl = platform.url.replace('127.0.0.1', 'localhost');
});
afterAll(async () => {
  await browser?.close();
  await platform?.close();
});

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
    const email = `grace-${randomUUID().slice(0, 8)}@demo.test`;
    await platform.context.services.users.create(
      platform.project.project,
      { primary_email: email, primary_email_auth_enabled: true, password: 'passkey-password-1' },
      'server',
    );
    const page = await browser.newPage();
    await withVirtualAuthenticator(page);
    await page.goto(`${appUrl}/handler/sign-in`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('passkey-password-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.getByTestId('greeting').textContent()).toBe(`Hello, ${email}`);

    await page.goto(`${appUrl}/handler/account-settings`);
    await page.getByRole('tab', { name: 'Passkeys' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('No passkey yet.');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('You can sign in with a passkey.');
    await shot(page, 'passkey-added');

    await page.goto(`${appUrl}/handler/sign-out`);
    await expect.poll(() => page.getByRole('heading', { name: 'Welcome to the demo app' }).isVisible()).toBe(true);
    await page.goto(`${appUrl}/handler/sign-in`);
    await shot(page, 'sign-in-with-passkey');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect.poll(() => page.getByTestId('greeting').textContent()).toBe(`Hello, ${email}`);
    await shot(page, 'signed-in-with-passkey');
  });
});
