import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { languageOwnNames } from '../src/i18n/language-select.tsx';
import { createProject, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * Issue #37 on the dashboard in Chromium. An owner signs up and creates a project as the existing dashboard
 * tests do (an English browser); then the same owner opens the dashboard's URL in a browser that speaks
 * another language: the pseudo-locale `en-XA` (every catalogue message accented inside ⟦…⟧, so any text
 * outside them escaped the catalogue), German (then French from the language menu, kept across a reload)
 * and Arabic (mirrored, screenshots in test-artifacts/e2e/dashboard-languages-*).
 */
const env = withDashboardInChromium();

/** Pages whose own words are all in the catalogues; on the others the shell (header and navigation) is checked. */
const translatedMain = (path: string) =>
  ['/dashboard/projects', '/dashboard/projects/new'].includes(path) ||
  /\/teams$/.test(path) ||
  /\/(overview|connect|users|permissions|auth|sign-up-rules)$/.test(path);
/**
 * Names that are no UI text: the product, the OAuth providers, the bot-challenge products, each language's own name, the pseudo-locale's tag,
 * and the descriptions a new project's default team permissions carry (the project's data, which the owner edits).
 */
const names = [
  'Gatehouse',
  'Google',
  'GitHub',
  'Microsoft',
  'OAuth',
  // The other OAuth providers and the bot-challenge products the authentication page offers by name.
  ...['Spotify', 'Facebook', 'Discord', 'GitLab', 'Bitbucket', 'LinkedIn', 'Apple', 'Twitch', 'X'],
  ...['Cloudflare Turnstile', 'hCaptcha', 'Google reCAPTCHA'],
  'en-XA',
  ...languageOwnNames,
  'Manage the team, its members and its API keys',
  'See the other members',
];

type Owner = { email: string; projectName: string; projectId: string; storage: Awaited<ReturnType<BrowserContext['storageState']>> };

/** One owner for the file (a sign-up hashes a password with argon2: one is enough on a loaded machine). */
let sharedOwner: Promise<Owner> | undefined;
const ownerWithProject = (browser: Browser): Promise<Owner> => {
  sharedOwner ??= signUpWithProject(browser);
  return sharedOwner;
};

async function signUpWithProject(browser: Browser): Promise<Owner> {
  const page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
  const email = `lang-${randomUUID().slice(0, 8)}@dashboard.test`;
  await signUpOwner(page, env.platform.url, email);
  const projectName = 'Sprachen Co';
  const projectId = await createProject(page, projectName, { newTeam: 'Sprachen team' });
  const storage = await page.context().storageState();
  await page.context().close();
  return { email, projectName, projectId, storage };
}

/** The owner, already signed in (tokens in localStorage), in a browser whose language is `locale`. */
async function browserIn(locale: string, owner: Owner): Promise<Page> {
  const context = await env.browser.newContext({ locale, storageState: owner.storage, viewport: { width: 1024, height: 768 } });
  return context.newPage();
}

/** Until the dashboard shows no loading state (in any language) and the page has its heading. */
async function settled(page: Page): Promise<void> {
  await expect
    .poll(async () => (await page.locator('.dash-loading, [aria-busy="true"]').count()) === 0 && (await page.locator('h1').count()) > 0, {
      timeout: 30_000,
    })
    .toBe(true);
}

/**
 * The text of `selector` that is not inside a pseudo-localised message, the owner's data and names aside.
 * Code (`<code>`, `<pre>`: ids, paths, environment variables, the snippets to paste) is no UI text either.
 */
async function outsidePseudo(page: Page, selector: string, data: string[]): Promise<string> {
  // Code hidden for the reading (a style that hides it while the rendered text is taken), as an owner skips it.
  const text = await page.evaluate((selector) => {
    const hideCode = document.createElement('style');
    hideCode.textContent = 'code, pre { display: none !important; }';
    document.head.append(hideCode);
    try {
      return [...document.querySelectorAll<HTMLElement>(selector)].map((element) => element.innerText).join('\n');
    } finally {
      hideCode.remove();
    }
  }, selector);
  return [...data, ...names]
    .sort((a, b) => b.length - a.length)
    .reduce((left, value) => left.replaceAll(value, ''), text.replace(/⟦[^⟧]*⟧/g, ''))
    .replace(/[\s\p{P}\p{S}\d]/gu, '');
}

describe('the dashboard in the owner’s language', () => {
  it('en-XA: no text outside the catalogue in the shell of every page, nor on the translated pages', { timeout: 420_000 }, async () => {
    const owner = await ownerWithProject(env.browser);
    const page = await browserIn('en-XA', owner);
    const data = [owner.email, owner.projectName, owner.projectId, owner.email.charAt(0).toUpperCase()];
    await page.goto(`${env.platform.url}/dashboard`);
    // The dashboard's address shows the projects (as in English, where signUpOwner waits for their heading).
    await expect.poll(() => page.locator('.dash-cards').isVisible(), { timeout: 30_000 }).toBe(true);
    await settled(page);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-XA');
    expect(await outsidePseudo(page, '.dash', data)).toBe('');

    // The new-project page through its link, then the project through its card.
    await page.locator('a.dash-primary').click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard/projects/new');
    await settled(page);
    expect(await outsidePseudo(page, '.dash', [...data, 'Sprachen team'])).toBe('');
    await page.locator('.dash-brand').click();
    await settled(page);
    await page.getByRole('link', { name: owner.projectName }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/dashboard/projects/${owner.projectId}/overview`);

    // Every page of the project's navigation, through its link.
    const links = page.locator('.dash-nav a');
    const count = await links.count();
    expect(count).toBe(17);
    const visited: string[] = [];
    for (let index = 0; index < count; index++) {
      await links.nth(index).click();
      await expect.poll(() => links.nth(index).getAttribute('aria-current')).toBe('page');
      await settled(page);
      const path = new URL(page.url()).pathname;
      visited.push(path);
      const where = `${path} (header and navigation)`;
      expect({ where, outside: await outsidePseudo(page, '.dash-top, .dash-nav, .dash-skip', data) }).toEqual({ where, outside: '' });
      if (translatedMain(path)) expect({ path, outside: await outsidePseudo(page, '#main', data) }).toEqual({ path, outside: '' });
    }
    expect(new Set(visited).size).toBe(17);

    await page.context().close();
  });

  it('German from the browser, French from the language menu (kept across a reload)', { timeout: 300_000 }, async () => {
    const owner = await ownerWithProject(env.browser);
    const page = await browserIn('de-DE', owner);
    await page.goto(`${env.platform.url}/dashboard`);
    await expect.poll(() => page.getByRole('heading', { name: 'Projekte', level: 1 }).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['de', 'ltr']);
    await expect.poll(() => page.getByRole('link', { name: 'Projekt erstellen' }).isVisible()).toBe(true);
    // The count by German's plural rules, the creation date through Intl in German (e.g. "28.11.2026, 20:15").
    await expect.poll(() => page.getByText('1 Projekt', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText(/Erstellt am \d{2}\.\d{2}\.\d{4}/).isVisible()).toBe(true);

    await page.getByRole('link', { name: owner.projectName }).click();
    await expect.poll(() => page.getByRole('navigation', { name: 'Projektseiten' }).isVisible(), { timeout: 30_000 }).toBe(true);
    for (const name of ['Übersicht', 'Benutzer', 'Berechtigungen', 'Audit-Protokoll', 'Projekteinstellungen'])
      expect(await page.getByRole('navigation').getByRole('link', { name, exact: true }).isVisible(), name).toBe(true);
    expect(await page.getByRole('link', { name: 'Users', exact: true }).count()).toBe(0);

    await page.getByLabel('Sprache', { exact: true }).selectOption('fr');
    await expect.poll(() => page.getByRole('navigation', { name: 'Pages du projet' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    await page.reload();
    await expect.poll(() => page.getByRole('link', { name: 'Utilisateurs', exact: true }).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await page.getByLabel('Langue', { exact: true }).inputValue()).toBe('fr');
    await page.context().close();
  });

  it('Arabic: dir="rtl", the navigation on the right, screenshots kept', { timeout: 300_000 }, async () => {
    const shot = screenshots('dashboard-languages-ar');
    const owner = await ownerWithProject(env.browser);
    const page = await browserIn('ar', owner);
    await page.goto(`${env.platform.url}/dashboard`);
    await expect.poll(() => page.getByRole('heading', { name: 'المشاريع', level: 1 }).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['ar', 'rtl']);
    await settled(page);
    await shot(page, 'projects');
    await page.getByRole('link', { name: owner.projectName }).click();
    await expect.poll(() => page.getByRole('navigation', { name: 'صفحات المشروع' }).isVisible(), { timeout: 30_000 }).toBe(true);
    await settled(page);
    // Mirrored: the navigation sits right of the page's content.
    const nav = (await page.locator('.dash-nav').boundingBox())!;
    const main = (await page.locator('#main').boundingBox())!;
    expect(nav.x).toBeGreaterThan(main.x);
    await shot(page, 'overview');
    await page.context().close();
  });
});
