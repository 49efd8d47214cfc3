import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { ownKeys } from '@gatehouse/testing/oauth-test-flow';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * A user's OAuth accounts on the user page in a real Chromium against the platform on real Postgres: accounts linked
 * with a provider of the project's config (one another user signs in with, a second sign-in account of the same type,
 * and a provider taken out of the config meanwhile each refused with the server's message, nothing linked), sign-in
 * and connected-account access switched at once (a refused switch shown switched while the server answers, then put
 * back with its message), the connected accounts following, an account unlinked behind a confirmation; each change
 * checked on the server; axe light and dark.
 */
const env = withDashboardInChromium();

type Link = { id: string; account_id: string; provider_config_id: string; allow_sign_in: boolean; allow_connected_accounts: boolean };

describe('the dashboard in Chromium: OAuth accounts', () => {
  it("links, switches, and unlinks a user's OAuth accounts", { timeout: 180_000 }, async () => {
    const shot = screenshots('dashboard-oauth-accounts');
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 800 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Links Co', { newTeam: 'Links team' });
    const { services } = env.platform.context;
    const configure = async (providers: Record<string, unknown>) => {
      await services.projects.forget(projectId);
      const project = (await services.projects.find(projectId))!;
      await services.projects.update(project.id, { configOverride: { ...project.config_override, 'auth.oauth.providers': providers } });
      await services.projects.forget(projectId);
    };
    const project = (await services.projects.find(projectId))!;
    const tag = randomUUID().slice(0, 8);
    const ada = await services.users.create(project, { display_name: 'Ada', primary_email: `ada-${tag}@links.test` }, 'server');
    const grace = await services.users.create(project, { display_name: 'Grace', primary_email: `grace-${tag}@links.test` }, 'server');
    const { admin } = await env.platform.apiHeadersFor(projectId);
    const linksOnServer = async () => {
      const response = await fetch(`${env.platform.url}/api/v1/oauth-providers?user_id=${ada.id}`, { headers: admin });
      expect(response.status).toBe(200);
      const { items } = (await response.json()) as { items: Link[] };
      return Object.fromEntries(
        items.map((link) => [`${link.provider_config_id}/${link.account_id}`, [link.allow_sign_in, link.allow_connected_accounts]]),
      );
    };

    // No provider configured yet: nothing to link with, and where to configure one.
    await page.goto(`${env.platform.url}/dashboard/projects/${projectId}/users/${ada.id}`);
    const section = page.getByRole('region', { name: 'OAuth accounts', exact: true });
    await expect
      .poll(() => section.getByRole('link', { name: 'configure OAuth providers' }).getAttribute('href'), { timeout: 15_000 })
      .toBe(`/dashboard/projects/${projectId}/auth`);
    await configure({ github: ownKeys('github'), google: ownKeys('google') });
    const graceLink = await fetch(`${env.platform.url}/api/v1/oauth-providers`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({
        user_id: grace.id,
        provider_config_id: 'github',
        account_id: 'gh-grace',
        allow_sign_in: true,
        allow_connected_accounts: false,
      }),
    });
    expect(graceLink.status).toBe(201);
    // The linked accounts cannot be read (the server fails): the section says why, and Try again reads them once it can.
    const linkList = (url: URL) => url.pathname === '/api/v1/oauth-providers';
    await page.route(linkList, (route) =>
      route.request().method() === 'GET'
        ? route.fulfill({ status: 500, contentType: 'text/plain', body: 'The database did not answer.' })
        : route.continue(),
    );
    await page.reload();
    const listError = section.getByRole('alert');
    await expect
      .poll(() => listError.textContent(), { timeout: 15_000 })
      .toBe('Could not load OAuth accounts: The database did not answer.Try again');
    await page.unroute(linkList);
    await listError.getByRole('button', { name: 'Try again' }).click();
    const connected = page.getByRole('region', { name: 'Connected accounts', exact: true });
    const form = section.getByRole('form', { name: 'Link an OAuth account' });
    const row = (accountId: string) =>
      section.getByRole('list', { name: 'Linked OAuth accounts' }).getByRole('listitem').filter({ hasText: accountId });
    await expect.poll(() => section.getByText('No linked OAuth accounts.').isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => connected.getByText('No connected accounts.').isVisible()).toBe(true);
    const providerOptions = await form.getByLabel('Provider', { exact: true }).locator('option').allTextContents();
    expect(providerOptions.sort()).toEqual(['github', 'google']);

    // A provider account another user signs in with: refused with the catalogue's message, nothing linked.
    const link = async (provider: string, accountId: string, options: { email?: string; signIn?: boolean; connected?: boolean } = {}) => {
      await form.getByLabel('Provider', { exact: true }).selectOption(provider);
      await form.getByLabel('Account id', { exact: true }).fill(accountId);
      await form.getByLabel('Account email', { exact: true }).fill(options.email ?? '');
      await form.getByRole('checkbox', { name: 'Signs the user in' }).setChecked(options.signIn ?? true);
      await form.getByRole('checkbox', { name: 'Connected account (the app may use its tokens)' }).setChecked(options.connected ?? true);
      await form.getByRole('button', { name: 'Link account' }).click();
    };
    await link('github', 'gh-grace');
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('Another user already uses this provider account for sign-in.');
    expect(await linksOnServer()).toEqual({});

    // Linked, signing in and connected: listed, and among the connected accounts.
    await link('github', 'gh-ada-main', { email: `ada-${tag}@github.test` });
    await expect.poll(() => row('gh-ada-main').textContent()).toContain(`account gh-ada-main · ada-${tag}@github.test`);
    expect(await form.getByRole('alert').count()).toBe(0);
    expect(await form.getByLabel('Account id', { exact: true }).inputValue()).toBe('');
    expect(await linksOnServer()).toEqual({ 'github/gh-ada-main': [true, true] });
    await expect.poll(() => connected.getByRole('listitem').textContent()).toBe('githubaccount gh-ada-main');

    // A second github account that would also sign in: the server's plain message; linked for connected accounts only.
    await link('github', 'gh-ada-extra');
    await expect
      .poll(() => form.getByRole('alert').textContent())
      .toBe('The user already signs in with another github account; only one per provider type may allow sign-in.');
    expect(Object.keys(await linksOnServer())).toEqual(['github/gh-ada-main']);
    await form.getByRole('checkbox', { name: 'Signs the user in' }).uncheck();
    await form.getByRole('button', { name: 'Link account' }).click();
    await expect.poll(() => row('gh-ada-extra').textContent()).toContain('account gh-ada-extra · no email');
    expect(await linksOnServer()).toEqual({ 'github/gh-ada-main': [true, true], 'github/gh-ada-extra': [false, true] });
    await expect.poll(() => connected.getByRole('listitem').count()).toBe(2);
    // The page's heading line names each provider once, however many of its accounts are linked.
    await expect.poll(() => page.getByText(/sign-in methods: /).textContent()).toMatch(/sign-in methods: github( · |$)/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
    await shot(page, 'linked');
    await expectAccessible(page, 'the user page with linked OAuth accounts');

    // Sign-in switched on for the second one: shown on while the server answers, then put back with its message.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/v1/oauth-providers/**', async (route) => {
      if (route.request().method() === 'PATCH') await held;
      await route.continue();
    });
    const extraSignIn = row('gh-ada-extra').getByRole('checkbox', { name: 'Signs in', exact: true });
    await extraSignIn.click();
    await expect.poll(() => extraSignIn.isChecked()).toBe(true);
    release();
    await expect
      .poll(() => row('gh-ada-extra').getByRole('alert').textContent())
      .toBe('The user already signs in with another github account; only one per provider type may allow sign-in.');
    await expect.poll(() => extraSignIn.isChecked()).toBe(false);
    await page.unroute('**/api/v1/oauth-providers/**');
    expect((await linksOnServer())['github/gh-ada-extra']).toEqual([false, true]);
    await shot(page, 'switch-refused');

    // Connected accounts switched off for the first one (by keyboard): saved, and it leaves the connected accounts.
    await row('gh-ada-main').getByRole('checkbox', { name: 'Connected account', exact: true }).focus();
    await page.keyboard.press('Space');
    await expect.poll(async () => (await linksOnServer())['github/gh-ada-main']).toEqual([true, false]);
    await expect.poll(() => connected.getByRole('listitem').textContent()).toBe('githubaccount gh-ada-extra');
    expect(await row('gh-ada-main').getByRole('checkbox', { name: 'Connected account', exact: true }).isChecked()).toBe(false);

    // Google taken out of the config while the page is open: linking with it is refused with the server's message, and
    // the providers offered are read again.
    await configure({ github: ownKeys('github') });
    await link('google', 'g-ada');
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('The project has no OAuth provider google.');
    await expect.poll(() => form.getByLabel('Provider', { exact: true }).locator('option').allTextContents()).toEqual(['github']);
    expect(Object.keys(await linksOnServer()).sort()).toEqual(['github/gh-ada-extra', 'github/gh-ada-main']);

    // Unlinked behind a confirmation (Cancel keeps it), by keyboard.
    await row('gh-ada-extra').getByRole('button', { name: 'Unlink the github account gh-ada-extra' }).click();
    const dialog = page.getByRole('dialog', { name: 'Unlink this OAuth account?' });
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(Object.keys(await linksOnServer()).sort()).toEqual(['github/gh-ada-extra', 'github/gh-ada-main']);
    await row('gh-ada-extra').getByRole('button', { name: 'Unlink the github account gh-ada-extra' }).focus();
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Unlink account' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => row('gh-ada-extra').count()).toBe(0);
    expect(await linksOnServer()).toEqual({ 'github/gh-ada-main': [true, false] });
    await expect.poll(() => connected.getByText('No connected accounts.').isVisible()).toBe(true);
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await shot(page, 'unlinked-dark');
    await expectAccessible(page, 'the user page after unlinking an OAuth account, dark');
  });
});
