import { join, resolve } from 'node:path';
import type { AxeResults } from 'axe-core';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../examples/demo/e2e/chromium.ts';
import { builtPages, serveBuiltSite } from './built-site.ts';

/**
 * The documentation site in Chromium, served by the platform's plugin with no network beyond
 * loopback: the search box finds a page by a word of its body (the index ships with the site, so it
 * works offline), and every page passes axe-core (no serious or critical violation) in light and dark.
 */
let site: { dist: string; url: string; app: FastifyInstance };
let browser: Browser;
beforeAll(async () => {
  site = await serveBuiltSite();
  browser = await launchChromium();
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await site?.app.close();
});

const axeScript = join(resolve(import.meta.dirname, '../..'), 'node_modules/axe-core/axe.min.js');

async function seriousViolations(page: Page): Promise<string[]> {
  const results = (await page.evaluate(() =>
    (window as unknown as { axe: { run(context: Document): Promise<unknown> } }).axe.run(document),
  )) as AxeResults;
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

describe('the documentation site in Chromium', () => {
  it('finds the data vault guide by a word only its body has (ciphertext), offline', async () => {
    const context = await browser.newContext();
    // Nothing but the site itself: a search that needed another host would fail here.
    await context.route(/.*/, (route) => (route.request().url().startsWith(site.url) ? route.continue() : route.abort()));
    const page = await context.newPage();
    await page.goto(`${site.url}/docs/`);
    await page
      .getByRole('button', { name: /search/i })
      .first()
      .click();
    await page.getByRole('searchbox').fill('ciphertext');
    const results = page.locator('.VPLocalSearchBox a.result');
    // The index loads on the first search; a result is a page or one of its sections (`#anchor`).
    await expect
      .poll(() => results.evaluateAll((links) => links.map((link) => link.getAttribute('href'))), { timeout: 30_000 })
      .toEqual([expect.stringMatching(/^\/docs\/guide\/data-vault\.html(#.*)?$/)]);
    await results.first().click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/docs/guide/data-vault.html');
    await context.close();
  }, 120_000);

  it('has no serious or critical axe violation on any page, in light and in dark', async () => {
    const context = await browser.newContext({ colorScheme: 'light', viewport: { width: 1280, height: 800 } });
    // Injected with every page it loads (faster than adding it to each page after the load).
    await context.addInitScript({ path: axeScript });
    const page = await context.newPage();
    const failures: string[] = [];
    for (const path of builtPages(site.dist)) {
      await page.goto(`${site.url}/docs/${path}`);
      // Each page is loaded once and checked in both appearances: VitePress follows the media query as it changes.
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(colorScheme === 'dark');
        for (const violation of await seriousViolations(page)) failures.push(`${path} (${colorScheme}): ${violation}`);
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }
    await context.close();
    expect(failures).toEqual([]);
  }, 900_000);
});
