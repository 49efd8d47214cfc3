import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withDemoInChromium } from './e2e-environment.ts';

/**
 * The project's default language in Chromium (issue #37): a browser whose languages the UI does not have opens the
 * app's sign-up link and reads the handler page in the project's default (`project.defaultLanguage`: French here);
 * a browser that speaks a language the UI has reads that one, whatever the project says.
 */
const env = withDemoInChromium({ 'auth.password.allowSignIn': true, 'project.defaultLanguage': 'fr' });
const catalogueDir = resolve(import.meta.dirname, '../../../react/src/i18n/catalogues');
const catalogue = (language: string): Record<string, string> =>
  JSON.parse(readFileSync(join(catalogueDir, `${language}.json`), 'utf8')) as Record<string, string>;

async function signUpPageIn(locale: string): Promise<{ heading: string; lang: string; languages: readonly string[] }> {
  const context = await env.browser.newContext({ locale });
  try {
    const page = await context.newPage();
    await page.goto(`${env.platform.url}/`);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/handler/sign-up');
    const heading = page.getByRole('heading', { level: 1 });
    await expect.poll(() => heading.count(), { timeout: 20_000 }).toBeGreaterThan(0);
    // The provider sets `lang` on the document once the language is known.
    await expect.poll(() => page.evaluate(() => document.documentElement.lang), { timeout: 20_000 }).not.toBe('');
    return {
      heading: (await heading.first().textContent()) ?? '',
      lang: await page.evaluate(() => document.documentElement.lang),
      languages: await page.evaluate(() => navigator.languages),
    };
  } finally {
    await context.close();
  }
}

describe("the project's default language in the browser", () => {
  it("is used when none of the browser's languages is one the UI has", { timeout: 120_000 }, async () => {
    const page = await signUpPageIn('nl-NL');
    expect(page.languages).toEqual(['nl-NL']);
    expect(page).toMatchObject({ heading: catalogue('fr')['signUp.title'], lang: 'fr' });
  });

  it('gives way to a browser language the UI has', { timeout: 120_000 }, async () => {
    expect(await signUpPageIn('de-DE')).toMatchObject({ heading: catalogue('de')['signUp.title'], lang: 'de' });
  });
});
