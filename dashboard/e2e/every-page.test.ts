import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { projectSections } from '../src/routes.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * The quality bar on every route of `routes.ts` (a user's, a team's, an email theme's, template's,
 * draft's, outbox email's and a webhook endpoint's page included), one platform, one project with a little
 * data, at 1024×768 in light and dark: the page's heading is reached, the document does not scroll sideways,
 * axe finds no serious or critical violation, nothing is thrown or logged as an error; from the top of the
 * page Tab reaches the navigation and then the page's first control, every stop with a visible focus
 * indicator (its computed outline or box shadow); Enter on a navigation link navigates.
 * (code-split.test.ts covers the loading state and a failed chunk; this covers what each page shows.)
 */
const env = withDashboardInChromium();

type Visit = { path: string; heading: string; label: string };

/** Focusable, in tab order terms: what the first Tab stop inside <main> must be. */
const tabbable =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, iframe, [tabindex]:not([tabindex="-1"])';

type Stop = { where: 'skip' | 'header' | 'nav' | 'main' | 'other'; name: string; indicator: boolean; isFirstInMain: boolean };

/** Where the focus is now, and whether it shows (an outline or a box shadow, as the browser computes them). */
function focusStop(page: Page): Promise<Stop> {
  return page.evaluate((selector) => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { where: 'other', name: 'body', indicator: false, isFirstInMain: false } as const;
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
    const shadow = style.boxShadow !== 'none' && style.boxShadow !== '';
    const rect = element.getBoundingClientRect();
    const main = document.getElementById('main');
    const first = main
      ? Array.from(main.querySelectorAll<HTMLElement>(selector)).find((candidate) => {
          const box = candidate.getBoundingClientRect();
          return box.width > 0 && box.height > 0 && getComputedStyle(candidate).visibility !== 'hidden';
        })
      : undefined;
    const where = element.classList.contains('dash-skip')
      ? 'skip'
      : element.closest('.dash-nav')
        ? 'nav'
        : element.closest('.dash-top')
          ? 'header'
          : main?.contains(element) && element !== main
            ? 'main'
            : 'other';
    return {
      where,
      name: `${element.tagName.toLowerCase()} ${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}`,
      indicator: (outline || shadow) && rect.width > 0 && rect.height > 0,
      isFirstInMain: element === first,
    } as const;
  }, tabbable);
}

/** Tab from the top of a freshly loaded page until the focus is inside <main>; every stop on the way. */
async function tabIntoMain(page: Page): Promise<Stop[]> {
  const stops: Stop[] = [];
  for (let press = 0; press < 60; press++) {
    await page.keyboard.press('Tab');
    const stop = await focusStop(page);
    stops.push(stop);
    if (stop.where === 'main') return stops;
  }
  return stops;
}

describe('the dashboard in Chromium: every page', () => {
  it('meets the quality bar on every route at 1024×768, light and dark, by mouse and keyboard', { timeout: 420_000 }, async () => {
    const shot = screenshots('dashboard-every-page');
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 768 }, colorScheme: 'light' });
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`uncaught on ${page.url()}: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error on ${page.url()}: ${message.text()}`);
    });

    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Every Page Co', { newTeam: 'Every team' });

    // A little data: a user in a team with API keys and credits, a trusted domain, own Google keys, permissions,
    // a vault store, a product, a draft, a queued email, a webhook endpoint.
    const { context } = env.platform;
    const headers = await env.platform.apiHeadersFor(projectId);
    const call = async <T>(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, as: 'server' | 'admin' = 'admin') => {
      const response = await context.request({ method, url: `/api/v1${url}`, headers: headers[as], ...(payload ? { payload } : {}) });
      expect(response.status, `${method} ${url}: ${response.text}`).toBeLessThan(300);
      return response.body as T;
    };
    await call('PATCH', '/internal/config/override/project', {
      config_override_string: JSON.stringify({
        'domains.allowLocalhost': true,
        'domains.trustedDomains': { app: { baseUrl: 'https://app.every.test', handlerPath: '/handler' } },
        'auth.oauth.providers.google': {
          type: 'google',
          isShared: false,
          clientId: 'every-client',
          clientSecret: 'every-secret',
          allowSignIn: true,
        },
        'apiKeys.enabled': { user: true, team: true },
        'rbac.permissions': {
          read_reports: { description: 'Read the reports', scope: 'team', containedPermissionIds: {} },
          edit_reports: { description: 'Edit the reports', scope: 'team', containedPermissionIds: { read_reports: true } },
        },
        'dataVault.stores': { secrets: { displayName: 'Customer secrets' } },
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
        // A mail server nobody listens on: the queued email below is due tomorrow, never sent.
        'emails.server': {
          isShared: false,
          host: '127.0.0.1',
          port: 9,
          username: 'mailer',
          password: 'mailer-password',
          senderName: 'Every Page Co',
          senderEmail: 'news@every.test',
        },
      }),
    });
    const user = await call<{ id: string }>(
      'POST',
      '/users',
      { display_name: 'Ada Every', primary_email: `ada-${randomUUID().slice(0, 8)}@every.test`, primary_email_verified: true },
      'server',
    );
    const team = await call<{ id: string }>('POST', '/teams', { display_name: 'Everyone' }, 'server');
    await call('POST', `/team-memberships/${team.id}/${user.id}`, {}, 'server');
    await call('POST', '/user-api-keys', { user_id: user.id, description: 'Ada laptop' }, 'server');
    await call('POST', '/team-api-keys', { team_id: team.id, description: 'Team CI' }, 'server');
    await call(
      'POST',
      `/payments/items/user/${user.id}/credits/update-quantity?allow_negative=false`,
      { delta: 3, description: 'welcome' },
      'server',
    );
    const themes = await call<{ themes: Array<{ id: string; display_name: string }> }>('GET', '/internal/email-themes');
    const templates = await call<{ templates: Array<{ id: string; display_name: string }> }>('GET', '/internal/email-templates');
    const draft = await call<{ id: string }>('POST', '/internal/email-drafts', { display_name: 'Spring news' });
    await call('POST', '/emails/send-email', {
      user_ids: [user.id],
      subject: 'Welcome aboard',
      html: '<p>Hello</p>',
      scheduled_at_millis: Date.now() + 86_400_000,
    });
    const outbox = await call<{ items: Array<{ id: string }> }>('GET', '/emails/outbox');
    const endpoint = await call<{ id: string }>('POST', '/internal/webhooks/endpoints', {
      url: 'http://127.0.0.1:9/hooks',
      description: 'Audit log',
    });
    await call('POST', '/internal/oauth-applications', {
      name: 'Partner portal',
      type: 'confidential',
      redirect_uris: ['https://partner.every.test/callback'],
      scopes: ['openid', 'email'],
    });
    const theme = themes.themes[0]!;
    const template = templates.templates[0]!;

    const base = `/dashboard/projects/${projectId}`;
    const headingOf: Record<(typeof projectSections)[number], string> = {
      overview: 'Overview',
      connect: 'Connect your app',
      users: 'Users',
      teams: 'Teams',
      permissions: 'Permissions',
      auth: 'Authentication',
      'sign-up-rules': 'Sign-up rules',
      domains: 'Domains and handler',
      emails: 'Emails',
      'email-themes': 'Emails',
      'email-templates': 'Emails',
      'email-drafts': 'Emails',
      'email-outbox': 'Sent emails and outbox',
      'api-keys': 'API keys',
      'oauth-apps': 'OAuth applications',
      webhooks: 'Webhooks',
      'audit-log': 'Audit log',
      'data-vault': 'Data vault',
      payments: 'Payments',
      'payment-transactions': 'Transactions',
      settings: 'Every Page Co',
      config: 'Configuration',
    };
    const visits: Visit[] = [
      { path: '/dashboard/projects', heading: 'Projects', label: 'projects' },
      { path: '/dashboard/projects/new', heading: 'Create a project', label: 'new-project' },
      { path: '/dashboard/nowhere', heading: 'Page not found', label: 'not-found' },
      ...projectSections.map((section) => ({ path: `${base}/${section}`, heading: headingOf[section], label: section })),
      { path: `${base}/users/${user.id}`, heading: 'Ada Every', label: 'user' },
      { path: `${base}/teams/${team.id}`, heading: 'Everyone', label: 'team' },
      { path: `${base}/email-themes/${theme.id}`, heading: `Theme: ${theme.display_name}`, label: 'email-theme' },
      { path: `${base}/email-templates/${template.id}`, heading: `Template: ${template.display_name}`, label: 'email-template' },
      { path: `${base}/email-drafts/${draft.id}`, heading: 'Draft: Spring news', label: 'email-draft' },
      { path: `${base}/email-outbox/${outbox.items[0]!.id}`, heading: 'Welcome aboard', label: 'outbox-email' },
      { path: `${base}/webhooks/${endpoint.id}`, heading: 'Delivery log', label: 'webhook-endpoint' },
    ];
    // Every section of routes.ts is in the list (a new section cannot be left out of the sweep).
    expect(new Set(visits.map((visit) => visit.path.split('/')[4]).filter(Boolean))).toEqual(new Set(projectSections));

    const findings: string[] = [];
    for (const visit of visits) {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.mouse.move(0, 0);
      await page.goto(`${env.platform.url}${visit.path}`);
      const heading = page.getByRole('heading', { level: 1 }).first();
      const reached = await expect
        .poll(() => heading.textContent(), { timeout: 20_000 })
        .toBe(visit.heading)
        .then(() => true)
        .catch(async () => {
          findings.push(
            `${visit.label}: the heading is ${JSON.stringify(await heading.textContent().catch(() => null))}, not ${visit.heading}`,
          );
          return false;
        });
      if (!reached) continue;
      // The panels' own loading states settle (charts, lists) before the page is judged.
      await expect.poll(() => page.getByText(/^Loading/).count(), { timeout: 20_000, message: `${visit.path} loading` }).toBe(0);
      expect(await page.getByRole('heading', { name: 'This page could not be loaded' }).count(), visit.path).toBe(0);

      // From the top: the skip link, the header, the navigation (a project's pages), then the page's first control.
      const stops = await tabIntoMain(page);
      const last = stops.at(-1)!;
      if (last.where !== 'main')
        findings.push(`${visit.label}: Tab never reached the page (${stops.map((stop) => stop.name).join(' | ')})`);
      else if (!last.isFirstInMain) findings.push(`${visit.label}: the first Tab stop in the page is not its first control (${last.name})`);
      if (visit.path.startsWith(base) && !stops.some((stop) => stop.where === 'nav'))
        findings.push(`${visit.label}: Tab skipped the navigation`);
      for (const stop of stops.filter((candidate) => !candidate.indicator))
        findings.push(`${visit.label}: no visible focus indicator on ${stop.where} ${stop.name}`);

      // A 1024 px window with a classic scrollbar (17 px on Windows) leaves 1007 px: still no sideways scrolling.
      await page.setViewportSize({ width: 1007, height: 768 });
      const narrow = await page.evaluate(() => document.documentElement.scrollWidth);
      if (narrow > 1007) findings.push(`${visit.label}: a 1024 px window with a scrollbar scrolls sideways (${narrow} > 1007 px)`);
      await page.setViewportSize({ width: 1024, height: 768 });

      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        const widths = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
        }));
        if (widths.scroll > widths.client)
          findings.push(`${visit.label} (${scheme}): the document scrolls sideways (${widths.scroll} > ${widths.client} px)`);
        await expectAccessible(page, `${visit.label} (${scheme})`).catch((error: Error & { actual?: unknown }) =>
          findings.push(`${error.message.split(':')[0]}: ${JSON.stringify(error.actual)}`),
        );
        await shot(page, `${visit.label}-${scheme}`);
      }
    }
    expect(findings).toEqual([]);

    // Enter on a navigation link navigates (in the page, no reload), and the new page's heading comes.
    await page.goto(`${env.platform.url}${base}/overview`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Overview');
    await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });
    let stop: Stop | undefined;
    for (let press = 0; press < 40 && stop?.name !== 'a Users'; press++) {
      await page.keyboard.press('Tab');
      stop = await focusStop(page);
    }
    expect(stop).toMatchObject({ where: 'nav', name: 'a Users', indicator: true });
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).pathname).toBe(`${base}/users`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Users');
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

    // The skip link: the first Tab stop, shown when focused; Enter on it, and the next Tab is the page's first control.
    await page.goto(`${env.platform.url}${base}/users`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Users');
    await page.keyboard.press('Tab');
    expect(await focusStop(page)).toMatchObject({ where: 'skip', name: 'a Skip to content', indicator: true });
    // On screen while focused (it waits off-screen to the left otherwise).
    expect((await page.getByRole('link', { name: 'Skip to content' }).boundingBox())?.x).toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await focusStop(page)).toMatchObject({ where: 'main', isFirstInMain: true, indicator: true });

    expect(problems).toEqual([]);
  });
});
