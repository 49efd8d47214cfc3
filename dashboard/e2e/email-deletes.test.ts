import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * Deleting email themes, templates and drafts in a real Chromium against the platform on real
 * Postgres: a confirmation dialog naming what follows (the selected theme falls back to Default
 * Light; a built-in template is reset, not removed), the item leaving the list at once; a draft
 * another admin deleted first shows the server's 404 verbatim; with the network gone the draft
 * comes back (rollback) and the connection error is shown; Escape cancels. axe-core with the dialog
 * open, in light and dark, at 1024 px.
 */
const env = withDashboardInChromium();

const lightThemeId = '1df07ae6-abf3-4a40-83a5-a1a2cbe336ac';
const verificationTemplateId = 'e7d009ce-8d47-4528-b245-5bf119f2ffa3';

describe('the dashboard in Chromium: deleting emails', () => {
  it('deletes the selected theme, resets a built-in template, deletes a template and drafts, with errors and rollback', {
    timeout: 240_000,
  }, async () => {
    const shot = screenshots('dashboard-email-deletes');
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Delete Co', { newTeam: 'Delete team' });
    const { admin } = await env.platform.apiHeadersFor(projectId);
    const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => {
      const response = await env.platform.context.request({
        method,
        url: `/api/v1${url}`,
        headers: admin,
        ...(payload ? { payload } : {}),
      });
      expect(response.status, `${method} ${url}: ${JSON.stringify(response.body)}`).toBe(200);
      return response.body as Record<string, unknown>;
    };
    const configOf = async () => {
      env.platform.context.services.projects.forget(projectId);
      return (await env.platform.context.services.projects.find(projectId))!.config;
    };

    // The project's own SMTP server (templates need it), a theme of its own selected, a template of
    // its own, its version of the verification template, two drafts.
    await call('PATCH', '/internal/config/override/project', {
      config_override_string: JSON.stringify({
        'emails.server': {
          isShared: false,
          host: '127.0.0.1',
          port: 2525,
          username: 'mailer',
          password: 'mailer-password',
          senderName: 'Delete Co',
          senderEmail: 'auth@delete.test',
        },
      }),
    });
    const brand = (await call('POST', '/internal/email-themes', { display_name: 'Brand' })).id as string;
    await call('PATCH', '/internal/config/override/project', {
      config_override_string: JSON.stringify({ 'emails.selectedThemeId': brand }),
    });
    const digest = (await call('POST', '/internal/email-templates', { display_name: 'Weekly digest' })).id as string;
    await call('PATCH', `/internal/email-templates/${verificationTemplateId}`, { display_name: 'Email Verification (ours)' });
    const gone = (await call('POST', '/internal/email-drafts', { display_name: 'Gone already' })).id as string;
    const kept = (await call('POST', '/internal/email-drafts', { display_name: 'Spring news' })).id as string;

    await page.getByRole('link', { name: 'Emails', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Emails', level: 1 }).isVisible()).toBe(true);
    const themes = page.getByRole('list', { name: 'Themes' });
    const templates = page.getByRole('list', { name: 'Templates' });
    const drafts = page.getByRole('list', { name: 'Drafts' });
    await expect.poll(() => drafts.getByRole('link', { name: 'Spring news' }).isVisible()).toBe(true);
    await shot(page, 'emails-before');

    // The selected theme: the dialog says Default Light takes its place; it does, on the page and on the server.
    await themes.getByRole('button', { name: 'Delete Brand' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.textContent()).toContain("Brand is the theme of the project's emails: Default Light takes its place.");
    await expectAccessible(page, 'the delete dialog');
    await shot(page, 'delete-selected-theme-dialog');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => themes.getByRole('link', { name: 'Brand' }).count()).toBe(0);
    await expect.poll(async () => (await configOf()).emails.themes[brand]).toBeUndefined();
    expect((await configOf()).emails.selectedThemeId).toBe(lightThemeId);
    await expect.poll(() => page.getByLabel("Theme of the project's emails", { exact: true }).inputValue()).toBe(lightThemeId);

    // A built-in template is reset (it stays, under its built-in name); the project's own is removed.
    await templates.getByRole('button', { name: 'Reset Email Verification (ours)' }).click();
    await expect.poll(() => dialog.textContent()).toContain('the platform sends its built-in version again');
    await dialog.getByRole('button', { name: 'Reset', exact: true }).click();
    await expect.poll(() => templates.getByRole('link', { name: 'Email Verification', exact: true }).isVisible()).toBe(true);
    expect((await configOf()).emails.templates[verificationTemplateId]).toBeUndefined();
    await templates.getByRole('button', { name: 'Delete Weekly digest' }).click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => templates.getByRole('link', { name: 'Weekly digest' }).count()).toBe(0);
    await expect.poll(async () => (await configOf()).emails.templates[digest]).toBeUndefined();
    await shot(page, 'theme-and-templates-deleted');

    // Keyboard: the button opens the dialog, Escape cancels it, nothing is deleted.
    await drafts.getByRole('button', { name: 'Delete Spring news' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await drafts.getByRole('link', { name: 'Spring news' }).isVisible()).toBe(true);

    // Another admin deleted a draft first: the server's 404 is shown verbatim and the list follows the server.
    await call('DELETE', `/internal/email-drafts/${gone}`);
    await drafts.getByRole('button', { name: 'Delete Gone already' }).click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(`Email draft ${gone} does not exist.`);
    await expect.poll(() => drafts.getByRole('link', { name: 'Gone already' }).count()).toBe(0);
    await shot(page, 'draft-already-deleted');

    // The network is gone: the draft leaves the list at once, comes back when the delete fails, and stays on the server.
    await page.context().setOffline(true);
    await drafts.getByRole('button', { name: 'Delete Spring news' }).click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => drafts.getByRole('link', { name: 'Spring news' }).count()).toBe(0);
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 60_000 }).toMatch(/^The platform cannot be reached/);
    await expect.poll(() => drafts.getByRole('link', { name: 'Spring news' }).isVisible()).toBe(true);
    await shot(page, 'offline-delete-rolled-back');
    await page.context().setOffline(false);
    expect((await call('GET', `/internal/email-drafts/${kept}`)).display_name).toBe('Spring news');

    // Dark, 1024 px: the dialog passes axe; the delete goes through once online.
    await page.setViewportSize({ width: 1024, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await drafts.getByRole('button', { name: 'Delete Spring news' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await expectAccessible(page, 'the delete dialog, dark, 1024 px');
    await shot(page, 'delete-draft-dialog-dark-1024');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => drafts.getByRole('link', { name: 'Spring news' }).count()).toBe(0);
    const missing = await env.platform.context.request({ method: 'GET', url: `/api/v1/internal/email-drafts/${kept}`, headers: admin });
    expect(missing.status).toBe(404);
    await expectAccessible(page, 'the emails page after deletes, dark');
    await page.close();
  });
});
