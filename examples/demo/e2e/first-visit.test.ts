import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshots } from './chromium.ts';
import { type StartedPlatform, startLikePnpmStart } from './pnpm-start.ts';

/**
 * The example app as a newcomer first meets it (issue #29): `pnpm start` on a fresh data directory, the
 * example app's URL from the banner, and from there only what the app offers: its link to sign up, the
 * sign-up form, and back in the app signed in.
 */
let platform: StartedPlatform;
let browser: Browser;

beforeAll(async () => {
  [platform, browser] = await Promise.all([startLikePnpmStart(), launchChromium()]);
}, 420_000);

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

describe('the example app from a fresh pnpm start', () => {
  it('open the printed URL, follow the app to sign-up, land signed in', { timeout: 180_000 }, async () => {
    const shot = screenshots('example-first-visit');
    const page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(platform.printedUrl('Example app'));
    const createAccount = page.getByRole('link', { name: 'Create an account' });
    await expect.poll(() => createAccount.isVisible(), { timeout: 20_000 }).toBe(true);
    await shot(page, 'home-signed-out');

    await createAccount.click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/handler/sign-up');
    const email = `visitor-${randomUUID().slice(0, 8)}@example.com`;
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('visitor-password-1');
    await page.getByLabel('Repeat password', { exact: true }).fill('visitor-password-1');
    await shot(page, 'sign-up');
    await page.getByRole('button', { name: 'Sign up' }).click();

    await expect.poll(() => page.getByTestId('greeting').textContent(), { timeout: 20_000 }).toBe(`Hello, ${email}`);
    expect(new URL(page.url()).pathname).toBe('/');
    await shot(page, 'home-signed-in');
    expect(errors).toEqual([]);
  });
});
