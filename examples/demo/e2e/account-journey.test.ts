import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshots } from './chromium.ts';
import { createPasswordUser, greetingOf, signInWithPassword, submitPasswordSignIn, withDemoInChromium } from './e2e-environment.ts';

/**
 * A newcomer's first visit, in a real Chromium against the example app served by the platform on
 * real Postgres, with email through a real SMTP server: sign up, sign out, sign in (first with a
 * wrong password), reset the password with the emailed link, rename, create and switch to a team.
 */
const env = withDemoInChromium();

async function signOutWithUserButton(page: Page) {
  await page.getByRole('button', { name: /@demo\.test|Ada/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect.poll(() => page.getByRole('heading', { name: 'Welcome to the demo app' }).isVisible()).toBe(true);
}

describe('the example app in Chromium', () => {
  it('takes a newcomer through sign-up, sign-in, a password reset, settings and teams', { timeout: 120_000 }, async () => {
    const shot = screenshots('account-journey');
    const page = await env.browser.newPage();
    const email = `ada-${randomUUID().slice(0, 8)}@demo.test`;

    // Sign up: client-side validation first, then the account, then the app's home page.
    await page.goto(`${env.platform.url}/handler/sign-up`);
    await expect.poll(() => page.getByRole('heading', { name: 'Create your account' }).isVisible()).toBe(true);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Repeat password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect.poll(() => page.getByText('The password must be at least 8 characters long.').isVisible()).toBe(true);
    await shot(page, 'sign-up-validation');
    await page.getByLabel('Password', { exact: true }).fill('first-password-1');
    await page.getByLabel('Repeat password', { exact: true }).fill('first-password-1');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect.poll(() => greetingOf(page)).toBe(`Hello, ${email}`);
    expect(new URL(page.url()).pathname).toBe('/');
    await shot(page, 'signed-up-home');

    await signOutWithUserButton(page);
    await shot(page, 'signed-out');

    // The wrong password is told as such, without saying whether the email exists.
    await signInWithPassword(page, env.platform.url, { email, password: 'not-the-password' });
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Wrong e-mail or password.');
    await shot(page, 'wrong-password');
    await page.getByLabel('Password', { exact: true }).fill('first-password-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => greetingOf(page)).toBe(`Hello, ${email}`);
    await signOutWithUserButton(page);

    // Forgot password: the emailed link (real SMTP) leads to the reset page.
    await page.goto(`${env.platform.url}/handler/sign-in`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('we sent it a link');
    await shot(page, 'forgot-password-sent');
    const message = await env.platform.mail.waitFor(
      (candidate) => candidate.to.includes(email) && candidate.text.includes('/handler/password-reset'),
    );
    const link = message.text.match(/https?:\/\/\S+\/handler\/password-reset\?code=[A-Za-z0-9]+/)?.[0];
    expect(link, message.text).toBeDefined();
    await page.goto(link!);
    await page.getByLabel('New password', { exact: true }).fill('second-password-2');
    await page.getByLabel('Repeat password', { exact: true }).fill('second-password-2');
    await shot(page, 'password-reset');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Your password has been changed.');
    await signInWithPassword(page, env.platform.url, { email, password: 'first-password-1' });
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Wrong e-mail or password.');
    await page.getByLabel('Password', { exact: true }).fill('second-password-2');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => greetingOf(page)).toBe(`Hello, ${email}`);

    // Account settings: the new display name is saved and shown by the app.
    await page.getByRole('link', { name: 'Account settings' }).click();
    await page.getByLabel('Display name', { exact: true }).fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Saved.');
    await shot(page, 'account-settings');
    // Marketing emails can be turned off (and stay off); account emails cannot.
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await expect.poll(() => page.getByRole('checkbox', { name: 'Transactional' }).isDisabled()).toBe(true);
    await page.getByRole('checkbox', { name: 'Marketing' }).uncheck();
    await page.reload();
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await expect.poll(() => page.getByRole('checkbox', { name: 'Marketing' }).isChecked()).toBe(false);
    await shot(page, 'notifications');
    await page.getByRole('link', { name: 'Demo app' }).click();
    await expect.poll(() => greetingOf(page)).toBe('Hello, Ada Lovelace');

    // A new team from the switcher becomes the selected one.
    await page.getByLabel('Team', { exact: true }).selectOption({ label: '+ Create a team…' });
    await page.getByLabel('Team name', { exact: true }).fill('Analytical Engines');
    await page.getByRole('button', { name: 'Create team' }).click();
    await expect.poll(() => page.getByTestId('selected-team').textContent()).toBe('Current team: Analytical Engines');
    await shot(page, 'team-created');
    // With a second team, the switcher moves between them.
    await page.getByLabel('Team', { exact: true }).selectOption({ label: '+ Create a team…' });
    await page.getByLabel('Team name', { exact: true }).fill('Difference Engines');
    await page.getByRole('button', { name: 'Create team' }).click();
    await expect.poll(() => page.getByTestId('selected-team').textContent()).toBe('Current team: Difference Engines');
    await page.getByLabel('Team', { exact: true }).selectOption({ label: 'Analytical Engines' });
    await expect.poll(() => page.getByTestId('selected-team').textContent()).toBe('Current team: Analytical Engines');
    await shot(page, 'team-switched');
    // Both live on the server, not only in this page's cache.
    await page.reload();
    await expect.poll(() => page.getByTestId('selected-team').textContent()).toBe('Current team: Analytical Engines');
    await expect.poll(() => greetingOf(page)).toBe('Hello, Ada Lovelace');

    await signOutWithUserButton(page);
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: 'Welcome to the demo app' }).isVisible()).toBe(true);
    await shot(page, 'signed-out-again');
  });

  it('sends a signed-out visitor of a protected page to sign in and back', { timeout: 60_000 }, async () => {
    const shot = screenshots('return-to');
    const page = await env.browser.newPage();
    const grace = await createPasswordUser(env.platform, 'grace');
    await page.goto(`${env.platform.url}/protected`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/handler/sign-in');
    expect(new URL(page.url()).searchParams.get('after_auth_return_to')).toBe(`${env.platform.url}/protected`);
    await shot(page, 'redirected-to-sign-in');
    await submitPasswordSignIn(page, grace);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/protected');
    await expect.poll(() => page.getByText(`You are ${grace.email}.`).isVisible()).toBe(true);
    await shot(page, 'back-on-protected-page');
  });

  it('follows the system dark theme', { timeout: 60_000 }, async () => {
    const shot = screenshots('dark-theme');
    const page = await env.browser.newPage({ colorScheme: 'dark' });
    await page.goto(`${env.platform.url}/handler/sign-in`);
    const card = page.locator('.gh-card');
    await expect.poll(() => card.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(17, 24, 39)');
    await shot(page, 'sign-in-dark');
    const light = await env.browser.newPage({ colorScheme: 'light' });
    await light.goto(`${env.platform.url}/handler/sign-in`);
    await expect
      .poll(() => light.locator('.gh-card').evaluate((element) => getComputedStyle(element).backgroundColor))
      .toBe('rgb(255, 255, 255)');
  });
});
