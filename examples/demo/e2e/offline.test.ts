import { describe, expect, it } from 'vitest';
import { screenshots } from './chromium.ts';
import { createPasswordUser, greetingOf, submitPasswordSignIn, withDemoInChromium } from './e2e-environment.ts';

/**
 * A person whose browser goes offline on the sign-in page, in Chromium: the request fails in the browser (React Query
 * does not hold it back), and the form says so in the protocol's words instead of blaming the server or waiting for
 * good; back online, the same form signs in.
 */
const env = withDemoInChromium();

describe('offline in Chromium', () => {
  it('says "You are offline. Please check your internet connection and try again." and signs in once back online', {
    timeout: 60_000,
  }, async () => {
    const shot = screenshots('offline');
    const user = await createPasswordUser(env.platform, 'offline');
    const page = await env.browser.newPage();
    await page.goto(`${env.platform.url}/handler/sign-in`);
    // The page has loaded what it needs (the project's sign-in methods) before the network goes.
    await page.getByLabel('Email', { exact: true }).waitFor();
    await page.context().setOffline(true);
    await submitPasswordSignIn(page, user);
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('You are offline. Please check your internet connection and try again.');
    await shot(page, 'sign-in-offline');

    await page.context().setOffline(false);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => greetingOf(page)).toBe(`Hello, ${user.email}`);
    await page.close();
  });
});
