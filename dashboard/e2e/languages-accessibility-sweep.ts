import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { projectSections } from '../src/routes.ts';
import { createProject, type DashboardEnvironment, expectAccessible, signUpOwner } from './dashboard-platform.ts';

/**
 * Issue #37's "axe passes in every language, light and dark" on the dashboard: one owner, one project holding a
 * user in a team, a draft, an outbox email and a webhook endpoint (so their own pages exist), then every route
 * of `routes.ts` in a browser that speaks the language, judged by axe in both colour schemes once its heading
 * is there and nothing is loading. every-page.test.ts holds English to the same bar (and keyboard, widths).
 */
export type SweepOwner = { storage: Awaited<ReturnType<BrowserContext['storageState']>>; paths: string[] };

export async function ownerWithEveryPage(env: DashboardEnvironment): Promise<SweepOwner> {
  const page = await env.browser.newPage({ viewport: { width: 1024, height: 768 } });
  await signUpOwner(page, env.platform.url, `axe-${randomUUID().slice(0, 8)}@dashboard.test`);
  const projectId = await createProject(page, 'Axe Languages Co', { newTeam: 'Axe team' });
  const storage = await page.context().storageState();
  await page.context().close();

  const headers = await env.platform.apiHeadersFor(projectId);
  const send = async <T>(method: 'GET' | 'POST' | 'PATCH', url: string, as: 'server' | 'admin', payload?: object): Promise<T> => {
    const answer = await env.platform.context.request({
      method,
      url: `/api/v1${url}`,
      headers: headers[as],
      ...(payload ? { payload } : {}),
    });
    expect(answer.status, `${method} ${url}`).toBeLessThan(300);
    return answer.body as T;
  };
  // send-email needs the project's own mail server: one nobody listens on (the email is due tomorrow, never sent).
  const mailServer = { isShared: false, host: '127.0.0.1', port: 9, username: 'axe', password: 'axe-password' };
  await send('PATCH', '/internal/config/override/project', 'admin', {
    config_override_string: JSON.stringify({ 'emails.server': { ...mailServer, senderName: 'Axe', senderEmail: 'axe@axe.test' } }),
  });
  const user = await send<{ id: string }>('POST', '/users', 'server', {
    display_name: 'Grace Axe',
    primary_email: `grace-${randomUUID().slice(0, 8)}@axe.test`,
  });
  const team = await send<{ id: string }>('POST', '/teams', 'server', { display_name: 'Axe readers' });
  await send('POST', `/team-memberships/${team.id}/${user.id}`, 'server', {});
  const draft = await send<{ id: string }>('POST', '/internal/email-drafts', 'admin', { display_name: 'Axe draft' });
  await send('POST', '/emails/send-email', 'server', {
    user_ids: [user.id],
    subject: 'Axe letter',
    html: '<p>Hi</p>',
    scheduled_at_millis: Date.now() + 86_400_000,
  });
  const outbox = await send<{ items: Array<{ id: string }> }>('GET', '/emails/outbox', 'server');
  const endpoint = await send<{ id: string }>('POST', '/internal/webhooks/endpoints', 'admin', { url: 'http://127.0.0.1:9/hooks' });
  const themes = await send<{ themes: Array<{ id: string }> }>('GET', '/internal/email-themes', 'admin');
  const templates = await send<{ templates: Array<{ id: string }> }>('GET', '/internal/email-templates', 'admin');

  const base = `/dashboard/projects/${projectId}`;
  const items: Partial<Record<(typeof projectSections)[number], string>> = {
    users: user.id,
    teams: team.id,
    'email-themes': themes.themes[0]!.id,
    'email-templates': templates.templates[0]!.id,
    'email-drafts': draft.id,
    'email-outbox': outbox.items[0]!.id,
    webhooks: endpoint.id,
  };
  const paths = ['/dashboard/projects', '/dashboard/projects/new', ...projectSections.map((section) => `${base}/${section}`)];
  for (const [section, id] of Object.entries(items)) paths.push(`${base}/${section}/${id}`);
  return { storage, paths };
}

/** Every route in `locale`, light and dark: the serious or critical axe findings, one line each (none expected). */
export async function axeFindingsIn(env: DashboardEnvironment, owner: SweepOwner, locale: string): Promise<string[]> {
  const context = await env.browser.newContext({ locale, storageState: owner.storage, viewport: { width: 1024, height: 768 } });
  const page: Page = await context.newPage();
  const findings: string[] = [];
  try {
    for (const path of owner.paths) {
      await page.goto(`${env.platform.url}${path}`);
      await expect
        .poll(
          async () => (await page.locator('h1').count()) > 0 && (await page.locator('.dash-loading, [aria-busy="true"]').count()) === 0,
          { timeout: 30_000, message: `${locale} ${path} settles` },
        )
        .toBe(true);
      expect(await page.evaluate(() => document.documentElement.lang), path).toBe(locale);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await expectAccessible(page, `${locale} ${path} (${scheme})`).catch((error: Error & { actual?: unknown }) =>
          findings.push(`${locale} ${path} (${scheme}): ${JSON.stringify(error.actual)}`),
        );
      }
    }
  } finally {
    await context.close();
  }
  return findings;
}
