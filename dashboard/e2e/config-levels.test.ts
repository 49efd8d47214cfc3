import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * The Configuration page in a real Chromium against the platform on real Postgres: the config source
 * a push recorded (then unlinked), the override as a JSON editor (saved; invalid JSON and a refused
 * value shown with the server's own words, nothing saved), the branch level showing the same override
 * and resetting a key, the project level refusing resets, and the effective config naming where each
 * value comes from. axe-core in light and dark, at 1024 px.
 */
const env = withDashboardInChromium();

describe('the dashboard in Chromium: configuration levels', () => {
  it('shows the source, edits the override, shows refusals verbatim, resets keys and tells where values come from', {
    timeout: 240_000,
  }, async () => {
    const shot = screenshots('dashboard-config-levels');
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Config Levels Co', { newTeam: 'Levels team' });
    const { admin } = await env.platform.apiHeadersFor(projectId);
    const api = (method: 'GET' | 'PUT' | 'PATCH', url: string, payload?: object) =>
      env.platform.context.request({ method, url: `/api/v1${url}`, headers: admin, ...(payload ? { payload } : {}) });
    const configOf = async () => {
      env.platform.context.services.projects.forget(projectId);
      return (await env.platform.context.services.projects.find(projectId))!.config;
    };

    // A push from a GitHub workflow recorded the source (the override kept as it was).
    const stored = (await api('GET', '/internal/config/override/project')).body as { config_string: string };
    const pushed = await api('PUT', '/internal/config/override/project', {
      config_string: stored.config_string,
      source: {
        type: 'pushed-from-github',
        owner: 'acme',
        repo: 'auth-config',
        branch: 'main',
        commit_hash: 'abc1234',
        config_file_path: 'gatehouse.config.json',
      },
    });
    expect(pushed.status).toBe(200);

    await page.getByRole('link', { name: 'Configuration', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Configuration', level: 1 }).isVisible()).toBe(true);
    await expect
      .poll(() => page.getByTestId('config-source').textContent())
      .toBe('Pushed from GitHub: acme/auth-config, branch main, commit abc1234, file gatehouse.config.json.');
    const editor = page.getByLabel('Override (project level)', { exact: true });
    await expect.poll(() => editor.isVisible()).toBe(true);
    await expectAccessible(page, 'the configuration page');
    await shot(page, 'configuration');

    // Where a value comes from: client user deletion is off by default.
    const effective = page.getByRole('table', { name: 'Effective config' });
    const filter = page.getByLabel('Filter settings', { exact: true });
    const settingRow = effective.getByRole('row').filter({ hasText: 'users.allowClientUserDeletion' });
    await filter.fill('users.allowClient');
    await expect.poll(() => settingRow.textContent()).toBe('users.allowClientUserDeletionfalsedefault');

    // The override as JSON: a dotted key added and saved; the table says it comes from the override.
    const override = JSON.parse(await editor.inputValue()) as Record<string, unknown>;
    const server = {
      isShared: false,
      host: '127.0.0.1',
      port: 2525,
      username: 'mailer',
      password: 'smtp-secret-1',
      senderName: 'Levels',
      senderEmail: 'auth@levels.test',
    };
    await editor.fill(JSON.stringify({ ...override, 'users.allowClientUserDeletion': true, 'emails.server': server }, null, 2));
    await page.getByRole('button', { name: 'Save override' }).click();
    await expect.poll(() => page.getByText('Override saved.').isVisible()).toBe(true);
    await expect.poll(async () => (await configOf()).users.allowClientUserDeletion).toBe(true);
    expect((await configOf()).emails.server).toMatchObject({ isShared: false, password: 'smtp-secret-1' });
    await expect.poll(() => settingRow.textContent()).toBe('users.allowClientUserDeletiontrueoverride');
    // A secret is not spelled out in the table.
    await filter.fill('emails.server');
    await expect
      .poll(() => effective.getByRole('row').filter({ hasText: 'emails.server.password' }).textContent())
      .toBe('emails.server.password•••••• (see the override)override');
    expect(await effective.textContent()).not.toContain('smtp-secret-1');
    await filter.fill('users.allowClient');
    await shot(page, 'override-saved');

    // Refusals in the server's words, nothing saved: invalid JSON, then a value out of its choices.
    await editor.fill('{"auth": ');
    await page.getByRole('button', { name: 'Save override' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('config_string is not valid JSON.');
    const refused = JSON.stringify({ 'auth.oauth.accountMergeStrategy': 'merge_everything' });
    const expected = await api('PUT', '/internal/config/override/project', { config_string: refused });
    expect(expected.status).toBe(400);
    expect(expected.body).toMatch(/^auth\.oauth\.accountMergeStrategy must be one of /);
    await editor.fill(refused);
    await page.getByRole('button', { name: 'Save override' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(expected.body);
    expect(await editor.getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'override-refused');
    await expectAccessible(page, 'the configuration page with a refusal');
    expect((await configOf()).users.allowClientUserDeletion).toBe(true);
    await page.getByRole('button', { name: 'Discard changes' }).click();
    expect(JSON.parse(await editor.inputValue())).toMatchObject({ 'users.allowClientUserDeletion': true });

    // The project level may not reset keys; the branch level shows the same override and may.
    const resetForm = page.getByRole('form', { name: 'Reset keys' });
    await expect.poll(() => resetForm.getByText('Keys can be reset only at the branch and environment levels.').isVisible()).toBe(true);
    expect(await resetForm.getByRole('checkbox', { name: 'users.allowClientUserDeletion' }).isDisabled()).toBe(true);
    await page.getByRole('radio', { name: 'Branch' }).check();
    const branchEditor = page.getByLabel('Override (branch level)', { exact: true });
    await expect.poll(async () => JSON.parse(await branchEditor.inputValue())).toMatchObject({ 'users.allowClientUserDeletion': true });
    await resetForm.getByRole('checkbox', { name: 'users.allowClientUserDeletion' }).check();
    await resetForm.getByRole('button', { name: 'Reset 1 key' }).click();
    await expect.poll(() => resetForm.getByText('1 key reset.').isVisible()).toBe(true);
    await expect.poll(async () => (await configOf()).users.allowClientUserDeletion).toBe(false);
    await expect.poll(async () => JSON.parse(await branchEditor.inputValue())).not.toHaveProperty(['users.allowClientUserDeletion']);
    await expect.poll(() => settingRow.textContent()).toBe('users.allowClientUserDeletionfalsedefault');
    await shot(page, 'key-reset');

    // Unlinked from its source: the override stays.
    await page.getByRole('button', { name: 'Unlink' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Unlink' }).click();
    await expect
      .poll(() => page.getByTestId('config-source').textContent())
      .toBe('Not linked: the override is edited here or through the API.');
    expect((await api('GET', '/internal/config/source')).body).toEqual({ source: { type: 'unlinked' } });

    // Dark, 1024 px.
    await page.setViewportSize({ width: 1024, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await filter.fill('');
    await expectAccessible(page, 'the configuration page, dark, 1024 px');
    await shot(page, 'configuration-dark-1024');
    await page.close();
  });
});
