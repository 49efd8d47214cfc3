import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
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
      // Sections a test marks as another page part's (checked in their own cases).
      '[data-words-checked-elsewhere]',
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
  // A message inside another's placeholder is nested (⟦… ⟦…⟧ …⟧): the innermost ones go first, then the ones around them.
  let outsideMessages = text;
  while (/⟦[^⟦⟧]*⟧/.test(outsideMessages)) outsideMessages = outsideMessages.replace(/⟦[^⟦⟧]*⟧/g, '');
  return [...data, ...names]
    .sort((a, b) => b.length - a.length)
    .reduce((left, value) => left.replaceAll(value, ''), outsideMessages)
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
    // The texts are read (the built-in theme has none of its own: its footer words come from the email catalogues).
    await expect
      .poll(() => page.locator('.dash-email-texts input, .dash-email-texts p:not([role="status"])').count(), { timeout: 30_000 })
      .toBeGreaterThan(0);
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

/**
 * The pages the first journeys left out: domains, the project's API keys, a user's page (activity, contact
 * channels, OAuth accounts, notification preferences, the user's API keys), the payments customer panel and the
 * transactions page, the teams list and a team's page (members, invitations, API keys, domains). The project
 * gets a catalogue (test mode, an item and a product), a customer with an email and a team he is in; the owner
 * reaches every page by clicking.
 */
describe('the payments customer, transactions, domains, API keys, a user and a team in the owner’s language', () => {
  const customer = { name: 'Kunde Eins', email: `kunde-${randomUUID().slice(0, 8)}@seiten.test`, team: 'Kunden team' };
  let prepared: Promise<Owner & { userId: string; teamId: string }> | undefined;
  /** The owner's project with the catalogue, the customer and his team (made once, through the project's server API). */
  const ownerWithCustomer = () => {
    prepared ??= (async () => {
      const owner = await ownerWithProject();
      const headers = await env.platform.apiHeadersFor(owner.projectId);
      const call = async (method: 'POST' | 'PATCH', url: string, payload: object, as: 'server' | 'admin' = 'server') => {
        const response = await env.platform.context.request({ method, url: `/api/v1${url}`, headers: headers[as], payload });
        expect(response.status, response.text).toBeLessThan(300);
        return response.body as { id: string };
      };
      const catalogue = {
        'payments.testMode': true,
        'payments.items': { credits: { displayName: 'Credits', customerType: 'user' } },
        'payments.products': {
          pack: {
            displayName: 'Credit pack',
            customerType: 'user',
            stackable: true,
            prices: { once: { USD: '5' } },
            includedItems: { credits: { quantity: 10, expires: 'never' } },
          },
        },
      };
      await call('PATCH', '/internal/config/override/project', { config_override_string: JSON.stringify(catalogue) }, 'admin');
      const user = await call('POST', '/users', {
        display_name: customer.name,
        primary_email: customer.email,
        primary_email_verified: true,
      });
      const team = await call('POST', '/teams', { display_name: customer.team, creator_user_id: user.id });
      return { ...owner, userId: user.id, teamId: team.id };
    })();
    return prepared;
  };

  /** Opens the dashboard in `locale` and the project through its card. */
  async function openProject(locale: string): Promise<{ page: Page; owner: Owner & { userId: string; teamId: string } }> {
    const owner = await ownerWithCustomer();
    const context = await env.browser.newContext({ locale, storageState: owner.storage, viewport: { width: 1024, height: 768 } });
    const page = await context.newPage();
    await page.goto(`${env.platform.url}/dashboard`);
    await expect.poll(() => page.getByRole('link', { name: owner.projectName }).isVisible(), { timeout: 30_000 }).toBe(true);
    await page.getByRole('link', { name: owner.projectName }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toBe(`/dashboard/projects/${owner.projectId}/overview`);
    return { page, owner };
  }

  const nav = (section: string) => `.dash-nav a[href$="/${section}"]`;

  /**
   * Each page of the journey, reached by clicking; `visit` runs `onPage` on each (the en-XA check or the Arabic
   * mirror check with a screenshot).
   */
  async function journey(page: Page, owner: Owner & { userId: string; teamId: string }, onPage: (where: string) => Promise<void>) {
    await onPage(await follow(page, nav('domains'), /\/domains$/));
    await onPage(await follow(page, nav('api-keys'), /\/api-keys$/));

    // A user's page, through the users list.
    await follow(page, nav('users'), /\/users$/);
    await follow(page, `#main a[href$="/users/${owner.userId}"]`, new RegExp(`/users/${owner.userId}$`));
    // Its sections have loaded (activity, contact channels with the customer's email, OAuth accounts, preferences).
    await expect.poll(() => page.locator('#main').textContent(), { timeout: 30_000 }).toContain(customer.email);
    await expect.poll(() => page.locator('#main .dash-loading, #main [role="status"]:has-text("…")').count(), { timeout: 30_000 }).toBe(0);
    await onPage('a user’s page');

    // The payments customer panel: the customer shown from the customer form, then the pack granted to him.
    await follow(page, nav('payments'), /\/payments$/);
    const customerForm = page.locator('#main section.dash-section').last().locator('form').first();
    await customerForm.locator('select').selectOption('user');
    await customerForm.locator('input').fill(owner.userId);
    await customerForm.locator('button[type="submit"]').click();
    const grantForm = page.locator('#main form:has(option[value="pack"])').first();
    await expect.poll(() => grantForm.count(), { timeout: 30_000 }).toBe(1);
    await grantForm.locator('select').selectOption('pack');
    await grantForm.locator('button[type="submit"]').click();
    await expect
      .poll(() => page.locator('#main .dash-list li strong', { hasText: 'Credit pack' }).count(), { timeout: 30_000 })
      .toBeGreaterThan(0);
    // The item's quantity has arrived (in the language's digits).
    await expect.poll(() => page.locator('#main output strong').first().textContent(), { timeout: 30_000 }).not.toBe('…');
    await expect.poll(() => page.locator('#main .dash-loading').count(), { timeout: 30_000 }).toBe(0);
    await onPage('the payments customer panel');

    // The transactions page through the payments page's link: the grant is listed.
    await follow(page, '#main a[href$="/payment-transactions"]', /\/payment-transactions$/);
    await expect.poll(() => page.locator('#main tbody tr').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await onPage('the transactions page');

    // The teams list, then the customer's team: members (the customer), invitations, API keys, a domain added.
    await onPage(await follow(page, nav('teams'), /\/teams$/));
    await follow(page, `#main a[href$="/teams/${owner.teamId}"]`, new RegExp(`/teams/${owner.teamId}$`));
    await expect.poll(() => page.locator('#main').textContent(), { timeout: 30_000 }).toContain(customer.name);
    await page.locator('input[name="team-domain"]').fill('seiten.test');
    await page.locator('form:has(input[name="team-domain"]) button[type="submit"]').click();
    await expect.poll(() => page.locator('#main section.dash-card code').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await onPage('a team’s page');
  }

  it('en-XA: no text outside the catalogue on these pages', { timeout: 480_000 }, async () => {
    const { page, owner } = await openProject('en-XA');
    const data = [owner.email, owner.projectName, owner.projectId, 'Seiten team', customer.name, customer.email, customer.team];
    // Dates are Intl's, not the catalogue's: en-XA has no Intl locale, so they come out with English months and AM/PM.
    data.push(...['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec', 'AM', 'PM']);
    // A team member's permission ids (the project's records).
    data.push(
      ...[
        '$update_team',
        '$delete_team',
        '$read_members',
        '$remove_members',
        '$invite_members',
        '$manage_api_keys',
        'team_admin',
        'team_member',
      ],
    );
    // The catalogue's own ids and codes: the price id and its currency.
    data.push(owner.userId, owner.teamId, 'Credit pack', 'Credits', 'seiten.test', 'once', 'USD');
    // The descriptions of the project's key sets (the platform's test keys and the one made with the project): records' names.
    data.push('test backend', 'example app', 'Created with the project');
    await journey(page, owner, async (where) => {
      if (where === 'a team’s page') {
        // The team's SSO, SCIM and setup-link sections are another part's (their own cases): only sections whose heading is
        // a catalogue message are read here, and the members, invitations, API keys, domains and name sections must be among them.
        const checked = await page.evaluate(() => {
          let count = 0;
          for (const section of Array.from(document.querySelectorAll('#main section.dash-section'))) {
            if (section.querySelector('h2')?.textContent?.startsWith('⟦')) count++;
            else section.setAttribute('data-words-checked-elsewhere', '');
          }
          return count;
        });
        expect(checked).toBeGreaterThanOrEqual(5);
      }
      expect({ where, outside: await wordsOutsidePseudo(page, data) }).toEqual({ where, outside: '' });
    });
    await page.context().close();
  });

  it('Arabic: the same pages mirrored (dir="rtl", the navigation on the right), screenshots kept', { timeout: 480_000 }, async () => {
    const shot = screenshots('dashboard-languages-ar-pages');
    const { page, owner } = await openProject('ar');
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['ar', 'rtl']);
    let index = 0;
    await journey(page, owner, async (where) => {
      expect({ where, dir: await page.evaluate(() => document.documentElement.dir) }).toEqual({ where, dir: 'rtl' });
      const navBox = (await page.locator('.dash-nav').boundingBox())!;
      const mainBox = (await page.locator('#main').boundingBox())!;
      expect({ where, navRightOfMain: navBox.x > mainBox.x }).toEqual({ where, navRightOfMain: true });
      // The page's own text runs right to left.
      const direction = await page
        .locator('#main h1')
        .first()
        .evaluate((heading) => getComputedStyle(heading).direction);
      expect({ where, direction }).toEqual({ where, direction: 'rtl' });
      index++;
      await shot(
        page,
        where
          .replace(/^.*\//, '')
          .replace(/[^a-z]+/gi, '-')
          .replace(/^-|-$/g, ''),
      );
    });
    expect(index).toBe(7);
    await page.context().close();
  });
});
