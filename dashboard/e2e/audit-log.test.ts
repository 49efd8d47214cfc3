import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * The project's audit log in a real Chromium against the platform on real Postgres, reached as an owner does
 * (sign-up through the redirect, a new project, the Audit log link): 23 SCIM directories created and one
 * deleted through the admin API are listed newest first; a filter by action narrows the list (in the URL);
 * keyset pages go forward and back; the filtered entries download as NDJSON (every line one entry: the
 * client once read an NDJSON answer as one JSON document and failed) and as CSV; axe light and dark.
 */
const env = withDashboardInChromium();
/** `AUDIT_LOG_PAGE_SIZE` of `src/pages/audit-log.tsx` (not imported: the page module loads React). */
const AUDIT_LOG_PAGE_SIZE = 20;

describe('the dashboard in Chromium: the audit log', () => {
  it('filters, pages and exports the entries', { timeout: 240_000 }, async () => {
    const shot = screenshots('dashboard-audit-log');
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Audited Co', { newTeam: 'Audit team' });
    const { admin } = await env.platform.apiHeadersFor(projectId);
    const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const response = await fetch(`${env.platform.url}/api/v1${path}`, {
        method,
        headers: { ...admin, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      expect(response.status, `${method} ${path}`).toBeLessThan(300);
      return (await response.json()) as T;
    };
    const team = await call<{ id: string }>('POST', '/teams', { display_name: 'Audited team' });
    const created = AUDIT_LOG_PAGE_SIZE + 3;
    const directories: Array<{ id: string }> = [];
    for (let index = 0; index < created; index += 1) {
      directories.push(await call('POST', `/teams/${team.id}/scim-directories`, { display_name: `Directory ${index}` }));
    }
    await call('DELETE', `/teams/${team.id}/scim-directories/${directories[0]!.id}`);

    await page.getByRole('link', { name: 'Audit log', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Audit log');
    const rows = page.getByRole('table', { name: 'Audit log entries' }).locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(AUDIT_LOG_PAGE_SIZE);
    expect(await rows.first().textContent()).toContain('scim.directory_deleted');

    // Filtered by action: in the URL, keyset pages forward and back.
    const filters = page.getByRole('form', { name: 'Audit log filters' });
    await filters.getByLabel('Action', { exact: true }).fill('scim.directory_created');
    await filters.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('action')).toBe('scim.directory_created');
    await expect
      .poll(async () => (await rows.allTextContents()).every((row) => row.includes('scim.directory_created')), { timeout: 15_000 })
      .toBe(true);
    expect(await rows.count()).toBe(AUDIT_LOG_PAGE_SIZE);
    const firstPage = await rows.allTextContents();
    expect(firstPage[0]).toContain(directories.at(-1)!.id);
    const pager = page.getByRole('navigation', { name: 'Pages of the audit log' });
    await pager.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(created - AUDIT_LOG_PAGE_SIZE);
    expect(await rows.last().textContent()).toContain(directories[0]!.id);
    expect(await pager.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    await shot(page, 'second-page');
    await expectAccessible(page, 'the audit log, second page');
    await pager.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(() => rows.allTextContents(), { timeout: 15_000 }).toEqual(firstPage);

    // The filtered entries as files.
    const download = async (label: string) => {
      const event = page.waitForEvent('download');
      await page.getByRole('button', { name: label }).click();
      return readFile((await (await event).path())!, 'utf8');
    };
    const ndjson = (await download('Export NDJSON')).trim().split('\n');
    expect(ndjson).toHaveLength(created);
    const entries = ndjson.map((line) => JSON.parse(line) as { action: string; target_id: string; team_id: string });
    expect(new Set(entries.map((entry) => entry.action))).toEqual(new Set(['scim.directory_created']));
    expect(new Set(entries.map((entry) => entry.target_id))).toEqual(new Set(directories.map((directory) => directory.id)));
    expect(entries.every((entry) => entry.team_id === team.id)).toBe(true);
    const csv = (await download('Export CSV')).trim().split(/\r?\n/);
    expect(csv).toHaveLength(created + 1);
    expect(csv[0]).toContain('action');
    expect(csv.slice(1).every((line) => line.includes('scim.directory_created'))).toBe(true);
    expect(await page.getByRole('alert').count()).toBe(0);

    // Another action: only the deletion.
    await filters.getByLabel('Action', { exact: true }).fill('scim.directory_deleted');
    await filters.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1);
    expect(await rows.first().textContent()).toContain(directories[0]!.id);
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await expectAccessible(page, 'the audit log filtered, dark');
  });
});
