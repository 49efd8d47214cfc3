import { describe, expect, it } from 'vitest';
import { screenshots } from './chromium.ts';
import { createPasswordUser, greetingOf, submitPasswordSignIn, withDemoInChromium } from './e2e-environment.ts';

/**
 * Return targets in the React handler, in Chromium: a trusted `after_auth_return_to` is followed
 * after signing in; an untrusted one shows the error page (REDIRECT_URL_NOT_WHITELISTED) instead of
 * silently going home or following it. An OAuth callback whose token exchange fails says so in the
 * protocol's words.
 */
const env = withDemoInChromium();

describe('return targets in Chromium', () => {
  it('follows a same-origin after_auth_return_to after signing in', { timeout: 60_000 }, async () => {
    const user = await createPasswordUser(env.platform, 'trusted-return');
    const page = await env.browser.newPage();
    await page.goto(`${env.platform.url}/handler/sign-in?after_auth_return_to=${encodeURIComponent(`${env.platform.url}/?from=sign-in`)}`);
    await submitPasswordSignIn(page, user);
    await expect.poll(() => greetingOf(page)).toBe(`Hello, ${user.email}`);
    expect(new URL(page.url()).search).toBe('?from=sign-in');
    await page.close();
  });

  it('shows the error page for an untrusted after_auth_return_to, and never goes there', { timeout: 60_000 }, async () => {
    const shot = screenshots('redirects');
    const user = await createPasswordUser(env.platform, 'untrusted-return');
    const page = await env.browser.newPage();
    const evil = 'https://evil.example.com/steal';
    await page.goto(`${env.platform.url}/handler/sign-in?after_auth_return_to=${encodeURIComponent(evil)}`);
    await submitPasswordSignIn(page, user);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/handler/error');
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe(`Redirect URL not whitelisted: it is not on a trusted domain of this app. (${evil})`);
    expect(await page.getByText('Error code: REDIRECT_URL_NOT_WHITELISTED').isVisible()).toBe(true);
    expect(new URL(page.url()).origin).toBe(env.platform.url);
    await shot(page, 'untrusted-return-target');
    await page.close();
  });

  it('says "Error signing in during OAuth callback. Please try again." when the token exchange fails', { timeout: 60_000 }, async () => {
    const page = await env.browser.newPage();
    await page.goto(`${env.platform.url}/handler/sign-in`);
    // A flow this tab started, whose code the platform never issued.
    await page.evaluate((redirectUri) => {
      const flow = { codeVerifier: 'v'.repeat(43), redirectUri, returnTo: null, type: 'authenticate' };
      sessionStorage.setItem('gatehouse-oauth-state-1', JSON.stringify(flow));
    }, `${env.platform.url}/handler/oauth-callback`);
    await page.goto(`${env.platform.url}/handler/oauth-callback?code=never-issued&state=state-1`);
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Error signing in during OAuth callback. Please try again.');
    await page.close();
  });
});
