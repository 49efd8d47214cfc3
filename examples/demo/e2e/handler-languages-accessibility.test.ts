import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { languages } from '../../../react/src/i18n/languages.ts';
import { ownKeys } from '@gatehouse/testing/oauth-test-flow';
import { seriousViolations } from './accessibility.ts';
import { createPasswordUser, greetingOf, withDemoInChromium } from './e2e-environment.ts';

/**
 * Issue #37: axe in every language, light and dark. For each of the nine languages (the browser's), a visitor
 * opens the app, follows its sign-in link, opens the sign-up page from there and comes back, signs in, and opens
 * every tab of account settings from the user menu; every page and tab is judged by axe in light and in dark
 * (no serious or critical violation: contrast, names, `lang`/`dir` on the document, ...). The project offers
 * every section, so all twelve tabs show.
 */
const env = withDemoInChromium({
  'auth.passkey.allowSignIn': true,
  'auth.oauth.providers': { google: ownKeys('google') },
  'apiKeys.enabled': { user: true, team: true },
});

const catalogueDir = resolve(import.meta.dirname, '../../../react/src/i18n/catalogues');
const catalogue = (language: string): Record<string, string> =>
  JSON.parse(readFileSync(join(catalogueDir, `${language}.json`), 'utf8')) as Record<string, string>;

/** Judges the page as it is in light and in dark; each violation named by place and scheme. */
async function judge(page: Page, place: string, findings: string[]): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const violation of await seriousViolations(page)) findings.push(`${place} (${scheme}): ${violation}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Waits until the Gatehouse parts show no loading text (in the language's words) and nothing suspends. */
async function settled(page: Page, loading: string): Promise<void> {
  await expect
    .poll(async () => (await page.locator('.gh').allInnerTexts()).join('\n'), { timeout: 20_000 })
    .not.toMatch(new RegExp(`Loading…|${loading}|^\\s*$`));
}

describe('the handler pages in every language, light and dark', () => {
  it.each(languages)('%s: sign-in, sign-up and every tab of account settings pass axe', { timeout: 300_000 }, async (language) => {
    const t = (key: string) => catalogue(language)[key] as string;
    const user = await createPasswordUser(env.platform, `axe-${language.toLowerCase()}`);
    const context = await env.browser.newContext({ locale: language, viewport: { width: 1024, height: 768 } });
    const page = await context.newPage();
    const findings: string[] = [];
    const heading = () => page.getByRole('heading', { level: 1 }).first().textContent();

    await page.goto(`${env.platform.url}/`);
    await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
    await expect.poll(heading, { timeout: 20_000 }).toBe(t('signIn.title'));
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
      language,
      language === 'ar' ? 'rtl' : 'ltr',
    ]);
    await judge(page, 'sign-in', findings);

    await page.getByRole('link', { name: t('common.signUp'), exact: true }).click();
    await expect.poll(heading, { timeout: 20_000 }).toBe(t('signUp.title'));
    await judge(page, 'sign-up', findings);
    await page.goBack();
    await expect.poll(heading, { timeout: 20_000 }).toBe(t('signIn.title'));

    await page.getByLabel(t('field.email'), { exact: true }).fill(user.email);
    await page.getByLabel(t('field.password'), { exact: true }).fill(user.password);
    await page.getByRole('button', { name: t('common.signIn'), exact: true }).click();
    await expect.poll(() => greetingOf(page), { timeout: 20_000 }).toBe(`Hello, ${user.email}`);
    await page.getByRole('button', { name: user.email }).click();
    await page.getByRole('menuitem', { name: t('userButton.accountSettings') }).click();
    await expect.poll(heading, { timeout: 20_000 }).toBe(t('account.title'));

    const tabs = page.getByRole('tab');
    await expect.poll(() => tabs.count(), { timeout: 20_000 }).toBe(12);
    for (let index = 0; index < 12; index++) {
      await tabs.nth(index).click();
      await expect.poll(() => tabs.nth(index).getAttribute('aria-selected')).toBe('true');
      await settled(page, t('common.loading'));
      await judge(page, `account settings, tab ${index + 1} (${await tabs.nth(index).textContent()})`, findings);
    }
    expect(findings).toEqual([]);
    await context.close();
  });
});
