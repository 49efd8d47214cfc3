import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { languageOwnNames } from '../src/i18n/language-select.tsx';
import { createProject, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * Issue #37 on the rest of the dashboard's pages (dashboard-languages.test.ts covers the shell, the projects and
 * the teams list): the owner opens the dashboard in a browser whose language is the pseudo-locale `en-XA` (every
 * catalogue message accented inside ⟦…⟧) and goes, through the links a person follows, to the emails (the outbox,
 * a theme's and a template's editor with the AI assistant), the OAuth applications, the webhooks, the audit log,
 * the data vault, the payments, the project settings and the configuration. On each, any word outside ⟦…⟧ escaped the catalogue
 * (the owner's data, code, ids and the server's own names of things aside); then German shows the same pages'
 * words translated, with counts by German's plural rules.
 */
const env = withDashboardInChromium();

type Owner = { email: string; projectName: string; projectId: string; storage: Awaited<ReturnType<BrowserContext['storageState']>> };

/** One owner and project for the file (a sign-up hashes a password with argon2: one is enough on a loaded machine). */
let sharedOwner: Promise<Owner> | undefined;
const ownerWithProject = (): Promise<Owner> => {
  sharedOwner ??= signUpWithProject();
  return sharedOwner;
};

async function signUpWithProject(): Promise<Owner> {
  const page = await env.browser.newPage({ viewport: { width: 1024, height: 768 } });
  const email = `pages-${randomUUID().slice(0, 8)}@dashboard.test`;
  await signUpOwner(page, env.platform.url, email);
  const projectName = 'Seiten Co';
  const projectId = await createProject(page, projectName, { newTeam: 'Seiten team' });
  const storage = await page.context().storageState();
  await page.context().close();
  return { email, projectName, projectId, storage };
}

/** Names that are no UI text: the product, Stripe, each language's own name, the pseudo-locale's tag. */
const names = ['Gatehouse', 'Stripe', 'en-XA', ...languageOwnNames];

/**
 * The words of `#main` outside pseudo-localised messages: code, ids, editable text and the server's names of its
 * records (email themes and templates, option ids) are taken out first, then the owner's `data` and the names.
 */
async function wordsOutsidePseudo(page: Page, data: string[]): Promise<string> {
  const text = await page.evaluate(() => {
    const main = document.getElementById('main')?.cloneNode(true) as HTMLElement | undefined;
    if (!main) return '';
    const dataOnly = [
      'pre',
      'code',
      'textarea',
      'iframe',
      // The server's names of built-in themes and templates (records, like a user's name).
      'a[href*="/email-themes/"]',
      'a[href*="/email-templates/"]',
      // The config's own paths, offered for reset by name.
      'form:has(input[name="reset-keys"]) .dash-check label',
      // The custom claims field is shared with the auth page and translated with that page's words (dashboard i18n part 1).
      '.dash-json:has(textarea[placeholder*="client_read_only_metadata"])',
    ].join(', ');
    for (const element of Array.from(main.querySelectorAll(dataOnly))) element.remove();
    for (const option of Array.from(main.querySelectorAll('option'))) {
      // Record ids (themes, teams) and ISO currency codes name things, not words.
      if (/^[0-9a-f-]{36}$/i.test(option.value) || /^[A-Z]{3}$/.test(option.value)) option.remove();
    }
    // Every text node, hidden ones (closed dialogs, visually hidden labels) included; blocks kept apart by a space.
    for (const block of Array.from(main.querySelectorAll('p, li, td, th, dt, dd, label, option, button, h1, h2, h3, span, a')))
      block.append(' ');
    return main.textContent ?? '';
  });
  return [...data, ...names]
    .sort((a, b) => b.length - a.length)
    .reduce((left, value) => left.replaceAll(value, ''), text.replace(/⟦[^⟧]*⟧/g, ''))
    .replace(/[\s\p{P}\p{S}\d]/gu, '');
}

/** Until the page shows no loading state and has its heading. */
async function settled(page: Page): Promise<void> {
  await expect
    .poll(
      async () => (await page.locator('.dash-loading, [aria-busy="true"]').count()) === 0 && (await page.locator('#main h1').count()) > 0,
      { timeout: 30_000 },
    )
    .toBe(true);
}

/** Follows the link whose address ends in `suffix` (in the navigation or on the page) and waits for its page. */
async function follow(page: Page, selector: string, path: RegExp): Promise<string> {
  await page.locator(selector).first().click();
  await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toMatch(path);
  await settled(page);
  return new URL(page.url()).pathname;
}

describe('the rest of the dashboard in the owner’s language', () => {
  it('en-XA: no text outside the catalogue on the emails, OAuth apps, webhooks, audit log, data vault, payments, settings and config pages', {
    timeout: 480_000,
  }, async () => {
    const { email, projectName, projectId, storage } = await ownerWithProject();

    const context = await env.browser.newContext({ locale: 'en-XA', storageState: storage, viewport: { width: 1024, height: 768 } });
    const page = await context.newPage();
    const data = [email, projectName, projectId, 'Seiten team'];
    await page.goto(`${env.platform.url}/dashboard`);
    await expect.poll(() => page.getByRole('link', { name: projectName }).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-XA');
    await page.getByRole('link', { name: projectName }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toBe(`/dashboard/projects/${projectId}/overview`);

    const check = async (where: string) => {
      expect({ where, outside: await wordsOutsidePseudo(page, data) }).toEqual({ where, outside: '' });
    };
    const nav = (section: string) => `.dash-nav a[href$="/${section}"]`;

    // The emails, then the outbox through its link, a theme's and a template's editor (each with the assistant).
    await check(await follow(page, nav('emails'), /\/emails$/));
    await check(await follow(page, '#main a[href$="/email-outbox"]', /\/email-outbox$/));
    await follow(page, '#main a[href$="/emails"]', /\/emails$/);
    await follow(page, '#main a[href*="/email-themes/"]', /\/email-themes\//);
    await expect.poll(() => page.locator('.dash-email-texts input').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await check('a theme’s editor');
    await follow(page, nav('emails'), /\/emails$/);
    await follow(page, '#main a[href*="/email-templates/"]', /\/email-templates\//);
    await expect.poll(() => page.locator('.dash-email-texts input').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await check('a template’s editor');

    for (const section of ['oauth-apps', 'webhooks', 'audit-log', 'data-vault', 'payments', 'settings', 'config']) {
      const path = await follow(page, nav(section), new RegExp(`/${section}$`));
      // The audit log's first page (entries, or the empty state) has arrived.
      if (section === 'audit-log')
        await expect.poll(() => page.locator('#main tbody tr, #main p.dash-muted').count(), { timeout: 30_000 }).toBeGreaterThan(0);
      if (section === 'config') await expect.poll(() => page.locator('#main tbody tr').count(), { timeout: 30_000 }).toBeGreaterThan(0);
      await check(path);
    }

    // A data vault store and an OAuth application: the rows and the one-time panel speak the catalogue's words too.
    await follow(page, nav('data-vault'), /\/data-vault$/);
    await page.locator('input[name="store_id"]').fill('tax-ids');
    await page.locator('form:has(input[name="store_id"]) button[type="submit"]').click();
    await expect.poll(() => page.locator('#main li code', { hasText: 'tax-ids' }).count(), { timeout: 30_000 }).toBe(1);
    await check('the data vault with a store');
    await follow(page, nav('oauth-apps'), /\/oauth-apps$/);
    await page.locator('input[name="name"]').fill('Seiten app');
    await page.locator('textarea').first().fill('https://app.seiten.test/callback');
    await page.locator('form:has(input[name="name"]) button[type="submit"]').click();
    await expect.poll(() => page.locator('#main .dash-created-keys').count(), { timeout: 30_000 }).toBe(1);
    data.push('Seiten app', 'https://app.seiten.test/callback');
    await check('the OAuth applications with a new one');
    await context.close();
  });

  it('German: the same pages’ words translated, counts by German’s plural rules', { timeout: 300_000 }, async () => {
    const { projectName, projectId, storage } = await ownerWithProject();

    const context = await env.browser.newContext({ locale: 'de-DE', storageState: storage, viewport: { width: 1024, height: 768 } });
    const page = await context.newPage();
    await page.goto(`${env.platform.url}/dashboard`);
    await expect.poll(() => page.getByRole('link', { name: projectName }).isVisible(), { timeout: 30_000 }).toBe(true);
    await page.getByRole('link', { name: projectName }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toBe(`/dashboard/projects/${projectId}/overview`);

    await page.getByRole('navigation').getByRole('link', { name: 'Webhooks', exact: true }).click();
    await expect.poll(() => page.getByText('Noch keine Endpunkte.').isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await page.getByLabel('Endpunkt-URL', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Portal-Token erstellen' }).isVisible()).toBe(true);

    await page.getByRole('navigation').getByRole('link', { name: 'Audit-Protokoll', exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Erste Seite' }).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await page.getByLabel('Akteur-ID', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'NDJSON exportieren' }).isVisible()).toBe(true);

    // Two keys chosen at the branch level: "2 Schlüssel zurücksetzen" (German's plural, the count through ICU).
    await page.getByRole('navigation').getByRole('link', { name: 'Konfiguration', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Wirksame Konfiguration' }).isVisible(), { timeout: 30_000 }).toBe(true);
    await page.getByLabel('Branch-Ebene', { exact: true }).check();
    await page.getByLabel('Weitere Schlüssel', { exact: true }).fill('auth.a, auth.b');
    await expect.poll(() => page.getByRole('button', { name: '2 Schlüssel zurücksetzen' }).isVisible(), { timeout: 30_000 }).toBe(true);
    await page.getByLabel('Weitere Schlüssel', { exact: true }).fill('auth.a');
    await expect.poll(() => page.getByRole('button', { name: '1 Schlüssel zurücksetzen' }).isVisible()).toBe(true);

    await page.getByRole('navigation').getByRole('link', { name: 'E-Mails', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Designs', level: 2 }).isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await page.getByRole('link', { name: 'Gesendete E-Mails und Postausgang' }).isVisible()).toBe(true);
    await context.close();
  });
});
