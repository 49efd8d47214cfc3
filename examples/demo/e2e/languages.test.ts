import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { handlerPages } from '../../../react/src/handler-urls.ts';
import { languageOwnNames } from '../../../react/src/i18n/language-formats.ts';
import { ownKeys } from '@gatehouse/testing/oauth-test-flow';
import { expectAccessible } from './accessibility.ts';
import { screenshots } from './chromium.ts';
import { withDemoInChromium } from './e2e-environment.ts';

/**
 * Issue #37 in Chromium: a person whose browser speaks another language signs up from the app's own
 * link, opens account settings from the user menu and signs out, each handler page in their language
 * (no English sentence of the catalogue left; the pseudo-locale `en-XA` shows any text that escaped the
 * catalogue), axe-clean in light and dark, and mirrored for Arabic (screenshots in test-artifacts).
 * Every tab of account settings is opened in every language (the project offers every section); in
 * the pseudo-locale every handler page is opened too.
 */
const env = withDemoInChromium({
  'auth.passkey.allowSignIn': true,
  'auth.oauth.providers': { google: ownKeys('google') },
  'apiKeys.enabled': { user: true, team: true },
});
const catalogueDir = resolve(import.meta.dirname, '../../../react/src/i18n/catalogues');
const catalogue = (language: string): Record<string, string> =>
  JSON.parse(readFileSync(join(catalogueDir, `${language}.json`), 'utf8')) as Record<string, string>;
const english = catalogue('en');

/** `words` as a whole (not inside a longer word: French "Continuer" holds "Continue"). */
const asWhole = (words: string) => new RegExp(`(?<!\\p{L})${words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\p{L})`, 'u');

/**
 * English sentences and labels of the catalogue (no placeholders) found as a whole in the Gatehouse parts
 * of the page, except words the language itself uses (German says "Team" too: "Meine Teams").
 */
async function englishLeft(page: Page, language: string): Promise<string[]> {
  const translated = catalogue(language);
  const text = (await page.locator('.gh').allInnerTexts()).join('\n');
  return Object.entries(english)
    .filter(([key, words]) => !words.includes('{') && translated[key] !== words && words.length > 3)
    .map(([, words]) => words)
    .filter((words) => asWhole(words).test(text) && !Object.values(translated).some((other) => asWhole(words).test(other)));
}

/** Text of the Gatehouse parts that is not inside a pseudo-localised message (⟦…⟧), user data aside. */
async function textOutsidePseudo(page: Page, allowed: string[]): Promise<string> {
  const text = (await page.locator('.gh').allInnerTexts()).join('\n');
  return allowed.reduce((left, value) => left.replaceAll(value, ''), text.replace(/⟦[^⟧]*⟧/g, '')).replace(/[\s\p{P}]/gu, '');
}

async function journey(language: string, t: (key: string) => string) {
  const shot = screenshots(`languages-${language}`);
  const context = await env.browser.newContext({ locale: language, viewport: { width: 1024, height: 768 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const email = `lang-${language.toLowerCase()}-${Date.now()}@demo.test`;

  // The app's own home page (its words are the app's, not the catalogue's) and its sign-up link.
  await page.goto(`${env.platform.url}/`);
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect.poll(() => page.getByRole('heading', { name: t('signUp.title') }).isVisible(), { timeout: 20_000 }).toBe(true);
  expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
    language,
    language === 'ar' ? 'rtl' : 'ltr',
  ]);
  if (language === 'en-XA') expect(await textOutsidePseudo(page, [email])).toBe('');
  else if (language !== 'en') expect(await englishLeft(page, language)).toEqual([]);
  await expectAccessible(page, `sign-up (${language}, light)`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectAccessible(page, `sign-up (${language}, dark)`);
  await page.emulateMedia({ colorScheme: 'light' });

  // A check before any request: the form's own words.
  await page.getByRole('button', { name: t('common.signUp'), exact: true }).click();
  await expect.poll(() => page.getByText(t('validate.emailMissing')).isVisible()).toBe(true);
  if (language === 'ar') {
    // Mirrored: the heading's text sits against the card's right edge.
    const gaps = await page.evaluate(() => {
      const heading = document.querySelector('.gh-card h1') as HTMLElement;
      const range = document.createRange();
      range.selectNodeContents(heading);
      const text = range.getBoundingClientRect();
      const box = heading.getBoundingClientRect();
      return { right: box.right - text.right, left: text.left - box.left };
    });
    expect(gaps.right).toBeLessThan(2);
    expect(gaps.left).toBeGreaterThan(20);
  }
  await shot(page, 'sign-up');

  await page.getByLabel(t('field.email'), { exact: true }).fill(email);
  await page.getByLabel(t('field.password'), { exact: true }).fill('language-password-1');
  await page.getByLabel(t('field.repeatPassword'), { exact: true }).fill('language-password-1');
  await page.getByRole('button', { name: t('common.signUp'), exact: true }).click();
  await expect.poll(() => page.getByTestId('greeting').textContent(), { timeout: 20_000 }).toBe(`Hello, ${email}`);

  // The user menu, in the user's language, to account settings and to sign out.
  await page.getByRole('button', { name: email }).click();
  await page.getByRole('menuitem', { name: t('userButton.accountSettings') }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/handler/account-settings');
  await shot(page, 'account-settings');
  await everyTab(page, language, email);
  if (language === 'en-XA') await everySignedInPage(page, email);
  // The menu stays open across the move; open it only if it closed.
  const signOut = page.getByRole('menuitem', { name: t('userButton.signOut') });
  if (!(await signOut.isVisible())) await page.getByRole('button', { name: email }).click();
  await signOut.click();
  await expect.poll(() => page.getByRole('link', { name: 'Create an account' }).isVisible(), { timeout: 20_000 }).toBe(true);
  if (language === 'en-XA') await everySignedOutPage(page);
  expect(errors).toEqual([]);
  await context.close();
}

/** The user button's avatar shows the user's initial. */
const initialOf = (email: string) => email.charAt(0).toUpperCase();

/** Waits until the Gatehouse parts show no loading text (the pseudo-locale's too) and nothing suspends. */
async function settled(page: Page): Promise<void> {
  await expect
    .poll(async () => (await page.locator('.gh').allInnerTexts()).join('\n'), { timeout: 20_000 })
    .not.toMatch(/Loading…|Ĺöåđîñĝ…|^\s*$/);
}

/** The language picker lists each language in its own name (and the pseudo-locale by its tag): not the catalogue's words. */
const pickerNames = [...Object.values(languageOwnNames), 'en-XA'];

/** Each account-settings tab, by position (their names are the language's): no English left, or nothing outside the catalogue. */
async function everyTab(page: Page, language: string, email: string): Promise<void> {
  const tabs = page.getByRole('tab');
  await expect.poll(() => tabs.count(), { timeout: 20_000 }).toBe(12);
  const seen: string[] = [];
  for (let index = 0; index < 12; index++) {
    await tabs.nth(index).click();
    await expect.poll(() => tabs.nth(index).getAttribute('aria-selected')).toBe('true');
    await settled(page);
    seen.push((await tabs.nth(index).textContent()) ?? '');
    const where = `tab ${index + 1} (${language})`;
    if (language === 'en-XA')
      expect({ where, outside: await textOutsidePseudo(page, [email, initialOf(email), ...pickerNames]) }).toEqual({ where, outside: '' });
    else if (language !== 'en') expect({ where, english: await englishLeft(page, language) }).toEqual({ where, english: [] });
  }
  expect(new Set(seen).size).toBe(12);
  await tabs.first().click();
}

/** Opens a handler page as a link in an email or from an app would, and checks nothing is outside the catalogue. */
async function pseudoPage(page: Page, path: string, allowed: string[], visited: Set<string>): Promise<void> {
  await page.goto(`${env.platform.url}${path}`);
  await expect.poll(() => page.getByRole('heading', { level: 1 }).count(), { timeout: 20_000, message: path }).toBeGreaterThan(0);
  await settled(page);
  expect({ path, outside: await textOutsidePseudo(page, allowed) }).toEqual({ path, outside: '' });
  visited.add(new URL(page.url()).pathname.replace('/handler/', ''));
}

// The sign-out page says only `signOut.pending` while it leaves (the journey's menu signs out without it).
const visitedPseudo = new Set<string>(['sign-up', 'account-settings', 'sign-out']);

/** Signed in: the pages a signed-in visitor reaches by a link (each with an incomplete link: its own words). */
async function everySignedInPage(page: Page, email: string): Promise<void> {
  for (const path of ['/handler/cli-auth-confirm', '/handler/oauth-consent', '/handler/team-invitation', '/handler/email-verification'])
    await pseudoPage(page, path, [email, initialOf(email)], visitedPseudo);
  await page.goto(`${env.platform.url}/handler/account-settings`);
  await expect.poll(() => page.getByRole('tab').count(), { timeout: 20_000 }).toBe(12);
}

/** Signed out: every other handler page, then every name of the handler's route list was opened. */
async function everySignedOutPage(page: Page): Promise<void> {
  for (const path of [
    '/handler/sign-in',
    '/handler/forgot-password',
    '/handler/password-reset',
    '/handler/magic-link-callback',
    '/handler/mfa',
    '/handler/error?errorCode=OAUTH_PROVIDER_ACCESS_DENIED',
    '/handler/oauth-callback?code=stale&state=stale',
  ])
    await pseudoPage(page, path, [], visitedPseudo);
  // The not-found page names the path it was asked for.
  await pseudoPage(page, '/handler/no-such-page', ['/handler/no-such-page'], new Set());
  expect(Object.values(handlerPages).filter((name) => !visitedPseudo.has(name))).toEqual([]);
}

const pseudo = (key: string) => `⟦${english[key]}⟧`;

describe('the handler pages in the browser language', () => {
  it.each(['de', 'fr', 'es', 'pt-BR', 'ja', 'zh-CN', 'ko', 'ar', 'en'])(
    '%s: sign up, account settings, sign out',
    { timeout: 180_000 },
    async (language) => {
      const messages = catalogue(language);
      await journey(language, (key) => messages[key] as string);
    },
  );

  it('en-XA (pseudo-locale): no text outside the catalogue', { timeout: 180_000 }, async () => {
    // The pseudo-locale's words are English's with accents: look controls up by role and position instead.
    const accented = (key: string) =>
      pseudo(key).replace(
        /[a-zA-Z]/g,
        (letter) =>
          'åƀçđéfĝĥîjķĺmñöpqŕšţûvwxýžÅƁÇĐÉFĜĤÎJĶĹMÑÖPQŔŠŢÛVWXÝŽ'[
            'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'.indexOf(letter)
          ] as string,
      );
    await journey('en-XA', accented);
  });
});
