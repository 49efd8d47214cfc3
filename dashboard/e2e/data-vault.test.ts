import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createServerApp } from '../../client/src/app/server-app.ts';
import { DataVaultStoreDoesNotExistError } from '../../client/src/errors.ts';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * The Data vault page in a real Chromium against the platform on real Postgres: stores declared in
 * the config are added (a bad or taken id refused at the field), renamed and removed, each saved at
 * once; a store added here is usable by the server SDK at once; axe in light and dark.
 */
const env = withDashboardInChromium();

describe('the dashboard in Chromium: data vault', () => {
  it('adds, renames and removes stores, which the server SDK then uses', { timeout: 180_000 }, async () => {
    const shot = screenshots('dashboard-data-vault');
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 800 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Vault Co', { newTeam: 'Vault team' });
    const { services } = env.platform.context;
    const storesOf = async () => {
      services.projects.forget(projectId);
      return (await services.projects.find(projectId))!.config.dataVault.stores;
    };

    await page.getByRole('link', { name: 'Data vault', exact: true }).click();
    await expect.poll(() => page.getByText('No stores yet.').isVisible()).toBe(true);
    await expectAccessible(page, 'the empty data vault page');

    // A bad id is refused at the field, nothing is saved.
    await page.getByLabel('Store id', { exact: true }).fill('tax ids!');
    await page.getByRole('button', { name: 'Add store' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Use 1 to 63 letters, digits, - or _.');
    expect(await page.getByLabel('Store id', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await storesOf()).toEqual({});

    await page.getByLabel('Store id', { exact: true }).fill('tax-ids');
    await page.getByLabel('Display name', { exact: true }).fill('Tax ids');
    await page.getByRole('button', { name: 'Add store' }).click();
    await expect.poll(() => storesOf()).toEqual({ 'tax-ids': { displayName: 'Tax ids' } });
    await expect.poll(() => page.getByRole('list', { name: 'Stores' }).textContent()).toContain('tax-ids');
    await page.getByLabel('Store id', { exact: true }).fill('ssn');
    await page.getByRole('button', { name: 'Add store' }).click();
    await expect.poll(async () => Object.keys(await storesOf()).sort()).toEqual(['ssn', 'tax-ids']);

    // Taken ids are refused at the field.
    await page.getByLabel('Store id', { exact: true }).fill('ssn');
    await page.getByRole('button', { name: 'Add store' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('A store with the id ssn exists.');
    await page.getByLabel('Store id', { exact: true }).fill('');

    // The server SDK uses a store the page added.
    const project = (await services.projects.find(projectId))!;
    const { keys } = await services.apiKeys.createKeySet({
      projectId: project.id,
      description: 'vault test',
      expiresAt: new Date(Date.now() + 3_600_000),
      keys: { secret_server_key: true },
    });
    const store = createServerApp({
      baseUrl: env.platform.url,
      projectId,
      secretServerKey: keys.secret_server_key as string,
    }).dataVault.getStore('tax-ids');
    await store.setValue('user-1', 'DE-123', { secret: 'vault secret' });
    expect(await store.getValue('user-1', { secret: 'vault secret' })).toBe('DE-123');

    // Rename, keyboard only (Enter submits), in the dark theme.
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    const name = page.getByLabel('Display name of tax-ids', { exact: true });
    await name.fill('Tax identifiers');
    await name.press('Enter');
    await expect.poll(async () => (await storesOf())['tax-ids']).toEqual({ displayName: 'Tax identifiers' });
    await shot(page, 'stores-dark');
    await expectAccessible(page, 'the data vault page in the dark theme');

    // Remove behind a confirmation: the SDK is told the store does not exist; the other store stays.
    await page.getByRole('button', { name: 'Remove tax-ids' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove store' }).click();
    await expect.poll(() => storesOf()).toEqual({ ssn: { displayName: 'ssn' } });
    await expect.poll(() => page.getByRole('list', { name: 'Stores' }).textContent()).not.toContain('tax-ids');
    services.projects.forget(projectId);
    await expect(store.getValue('user-1', { secret: 'vault secret' })).rejects.toBeInstanceOf(DataVaultStoreDoesNotExistError);
    await shot(page, 'store-removed');
  });
});
