import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { ensureDashboardBuilt } from '../../scripts/src/example-app/build-example-app.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * The dashboard's code split, on the build `pnpm start` serves: no chunk over Vite's 500 kB warning, the
 * entry chunk (the shell) without the pages or recharts; in Chromium a page's chunk is fetched only when the
 * page is first shown, the loading state stands while it loads, and a chunk that cannot be fetched is an
 * error that says what to do.
 */
const env = withDashboardInChromium();

describe('the dashboard in Chromium: code split', () => {
  it('keeps every chunk under 500 kB and the charts out of the entry chunk', async () => {
    const dist = await ensureDashboardBuilt();
    const assets = join(dist, 'assets');
    const chunks = readdirSync(assets).filter((name) => name.endsWith('.js'));
    const sizes = Object.fromEntries(chunks.map((name) => [name, statSync(join(assets, name)).size]));
    expect(Object.entries(sizes).filter(([, size]) => size > 500 * 1024)).toEqual([]);
    const entry = /<script type="module"[^>]* src="\/dashboard\/assets\/([^"]+\.js)"/.exec(
      readFileSync(join(dist, 'index.html'), 'utf8'),
    )?.[1];
    expect(entry && sizes[entry]).toBeGreaterThan(0);
    // recharts' own words (its surface class names) are in the overview's chunk only.
    const withCharts = chunks.filter((name) => readFileSync(join(assets, name), 'utf8').includes('recharts-surface'));
    expect(withCharts).toHaveLength(1);
    expect(withCharts[0]).toMatch(/^overview-/);
    expect(sizes[entry!]).toBeLessThan(350 * 1024);
  });

  it('fetches a page’s chunk when the page is first shown, with the loading state meanwhile', { timeout: 120_000 }, async () => {
    const shot = screenshots('dashboard-code-split');
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 768 }, colorScheme: 'light' });
    const fetched: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/dashboard/assets/') && path.endsWith('.js')) fetched.push(path.slice('/dashboard/assets/'.length));
    });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    await expect.poll(() => page.getByText('You have no projects yet.').isVisible()).toBe(true);
    expect(fetched.some((name) => name.startsWith('projects-'))).toBe(true);
    expect(fetched.filter((name) => /^(overview|users|payments|emails|webhooks)-/.test(name))).toEqual([]);

    // The first page of a new project ("Connect your app") has its chunk held back: the loading state stands until it comes.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/dashboard/assets/connect-*.js', async (route) => {
      await held;
      await route.continue();
    });
    const projectId = await createProject(page, 'Split Co', { newTeam: 'Split team' });
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Loading…');
    await shot(page, 'page-chunk-loading');
    await expectAccessible(page, 'the loading state');
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(0);
    release();
    await expect.poll(() => page.getByRole('heading', { name: 'Connect your app', level: 1 }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(fetched.filter((name) => name.startsWith('connect-'))).toHaveLength(1);
    await page.unroute('**/dashboard/assets/connect-*.js');

    // A chunk that cannot be fetched: the page's error boundary says to reload.
    await page.route('**/dashboard/assets/users-*.js', (route) => route.abort('connectionrefused'));
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('This page’s code could not be loaded (the dashboard may have been updated). Reload the page.');
    await shot(page, 'page-chunk-failed');
    await page.unroute('**/dashboard/assets/users-*.js');
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: 'Users', level: 1 }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(new URL(page.url()).pathname).toBe(`/dashboard/projects/${projectId}/users`);
  });
});
