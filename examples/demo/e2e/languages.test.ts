import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './accessibility.ts';
import { screenshots } from './chromium.ts';
import { withDemoInChromium } from './e2e-environment.ts';

/**
 * Issue #37 in Chromium: a person whose browser speaks another language signs up from the app's own
 * link, opens account settings from the user menu and signs out, each handler page in their language
 * (no English sentence of the catalogue left; the pseudo-locale `en-XA` shows any text that escaped the
 * catalogue), axe-clean in light and dark, and mirrored for Arabic (screenshots in test-artifacts).
 */
const env = withDemoInChromium();
const catalogueDir = resolve(import.meta.dirname, '../../../react/src/i18n/catalogues');
const catalogue = (language: string): Record<string, string> =>
  JSON.parse(readFileSync(join(catalogueDir, `${language}.json`), 'utf8')) as Record<string, string>;
const english = catalogue('en');

/** English sentences and labels of the catalogue (no placeholders) found in the Gatehouse parts of the page. */
async function englishLeft(page: Page, language: string): Promise<string[]> {
  const translated = catalogue(language);
  const text = (await page.locator('.gh').allInnerTexts()).join('\n');
  return Object.entries(english)
    .filter(([key, words]) => !words.includes('{') && translated[key] !== words && words.length > 3)
    .map(([, words]) => words)
    .filter((words) => text.includes(words));
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
  // The menu stays open across the move; open it only if it closed.
  const signOut = page.getByRole('menuitem', { name: t('userButton.signOut') });
  if (!(await signOut.isVisible())) await page.getByRole('button', { name: email }).click();
  await signOut.click();
  await expect.poll(() => page.getByRole('link', { name: 'Create an account' }).isVisible(), { timeout: 20_000 }).toBe(true);
  expect(errors).toEqual([]);
  await context.close();
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
