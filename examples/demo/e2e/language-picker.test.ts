import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createPasswordUser, greetingOf, submitPasswordSignIn, withDemoInChromium } from './e2e-environment.ts';

/**
 * Issue #37: the language picker of account settings. A person whose browser speaks English signs in from the
 * app's own link, picks Deutsch in account settings: the page is German at once, and after a reload (the
 * user's `language` wins over the browser's); an email sent after that (a verification email) is German.
 * Signed out, the next visit in the same browser is English again: the choice belongs to the user, not the browser.
 */
const env = withDemoInChromium();

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).first().textContent();

describe('the language picker of account settings in Chromium', () => {
  it('switches the UI at once, keeps it across a reload and speaks the language in emails', { timeout: 180_000 }, async () => {
    const { platform } = env;
    const user = await createPasswordUser(platform, 'picker', { verified: false });
    const context = await env.browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    await page.goto(`${platform.url}/`);
    await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Sign in');
    await submitPasswordSignIn(page, user);
    await expect.poll(() => greetingOf(page), { timeout: 20_000 }).toBe(`Hello, ${user.email}`);
    await page.getByRole('button', { name: user.email }).click();
    await page.getByRole('menuitem', { name: 'Account settings' }).click();
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Account settings');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');

    // Picked: German at once, the choice shown in the picker, `lang` on the document.
    const picker = page.getByLabel('Your language', { exact: true });
    expect(await picker.inputValue()).toBe('en');
    await picker.selectOption({ label: 'Deutsch' });
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Kontoeinstellungen');
    expect(await page.getByRole('tab').first().textContent()).toBe('Profil');
    expect(await page.getByLabel('Ihre Sprache', { exact: true }).inputValue()).toBe('de');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');

    // Saved as the user's language: a reload (a new visit, browser still English) starts in German.
    await page.reload();
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Kontoeinstellungen');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');

    // An email after that speaks German: the verification email of the (unverified) address.
    await page.getByRole('tab', { name: 'E-Mail-Adressen' }).click();
    await page.getByRole('button', { name: 'Bestätigungs-E-Mail senden' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Bestätigungs-E-Mail gesendet.');
    const email = await platform.mail.waitFor((message) => message.to.includes(user.email) && message.text.includes('email-verification'));
    expect(email.subject).toMatch(/^Bestätigen Sie Ihre E-Mail-Adresse für /);
    expect(email.text).toContain('E-Mail-Adresse bestätigen');

    // Signed out, the next visit is in the browser's language again (the language is settled as the page loads;
    // the sign-in page of a signed-out visitor does not ask for a user).
    await page.goto(`${platform.url}/handler/sign-out`);
    await expect.poll(() => page.getByRole('heading', { name: 'Welcome to the demo app' }).isVisible(), { timeout: 20_000 }).toBe(true);
    await page.reload();
    await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
    await expect.poll(() => heading(page), { timeout: 20_000 }).toBe('Sign in');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    // And the next sign-in of that user, once the page is opened again, is German.
    await submitPasswordSignIn(page, user);
    await expect.poll(() => greetingOf(page), { timeout: 20_000 }).toBe(`Hello, ${user.email}`);
    await page.reload();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang), { timeout: 20_000 }).toBe('de');
    expect(errors).toEqual([]);
    await context.close();
  });
});
