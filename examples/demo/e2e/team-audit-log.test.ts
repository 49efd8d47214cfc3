import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from './accessibility.ts';
import { closePage, screenshots } from './chromium.ts';
import { greetingOf, submitPasswordSignIn, withDemoInChromium } from './e2e-environment.ts';

/**
 * A team's audit log in account settings (issue #34): the team's administrator, from the sign-in page, opens
 * account settings → Teams, reads the team's entries newest first, pages on with "More" (keyset paging through the
 * API), filters by target and exports what the filter selects as CSV and NDJSON files; a plain member of the same team is never offered the log.
 */
const env = withDemoInChromium();
const step = { timeout: 240_000 };
const wait = { timeout: 60_000 };

type Person = { id: string; email: string; password: string };

async function api(method: string, url: string, payload?: Record<string, unknown>) {
  const response = await env.platform.context.request({ method, url, headers: env.platform.project.headers.server, payload });
  expect(response.status, `${method} ${url}: ${response.text}`).toBeLessThan(300);
  return response.body;
}

async function newPerson(label: string): Promise<Person> {
  const email = `${label}-${Math.random().toString(36).slice(2, 10)}@demo.test`;
  const password = `${label}-password-1`;
  const user = await api('POST', '/api/v1/users', {
    primary_email: email,
    primary_email_auth_enabled: true,
    primary_email_verified: true,
    password,
  });
  return { id: user.id as string, email, password };
}

/** From the sign-in page a person opens, through the user menu, to account settings → Teams. */
async function openTeamsTab(page: Page, person: Person) {
  await page.goto(`${env.platform.url}/handler/sign-in`, { waitUntil: 'commit' });
  await submitPasswordSignIn(page, person);
  await expect.poll(() => greetingOf(page), wait).toBe(`Hello, ${person.email}`);
  await page.getByRole('button', { name: person.email }).click();
  await page.getByRole('menuitem', { name: 'Account settings' }).click();
  await page.getByRole('tab', { name: 'Teams' }).click();
}

/** Rows that are entries (each has a time), not the "none" or "More" rows. */
const entryRows = (page: Page) => page.getByRole('table', { name: 'Audit log of Analytical Engines' }).locator('tbody tr:has(time)');

describe("a team's audit log in the handler UI, in Chromium", () => {
  it('the admin reads, pages, filters and exports the entries; a plain member does not see the log', step, async () => {
    const shot = screenshots('team-audit-log');
    const admin = await newPerson('admin');
    const member = await newPerson('member');
    const team = await api('POST', '/api/v1/teams', { display_name: 'Analytical Engines', creator_user_id: admin.id });
    await api('POST', `/api/v1/team-memberships/${team.id}/${member.id}`);
    // More entries than one page (20) holds: each membership is one `team.member_added`.
    for (let index = 0; index < 21; index += 1) {
      const extra = await api('POST', '/api/v1/users', { primary_email: `extra-${index}-${team.id.slice(0, 8)}@demo.test` });
      await api('POST', `/api/v1/team-memberships/${team.id}/${extra.id}`);
    }
    const all = await api('GET', `/api/v1/teams/${team.id}/audit-log?limit=200`);
    const total = (all.items as unknown[]).length;
    expect(total).toBeGreaterThan(20);

    const page = await env.browser.newPage();
    page.setDefaultTimeout(wait.timeout);
    try {
      await openTeamsTab(page, admin);
      await page.getByRole('button', { name: 'Audit log of Analytical Engines' }).click();
      await expect.poll(() => entryRows(page).count(), wait).toBe(20);
      // Newest first: the last membership added is on top.
      expect(await entryRows(page).first().textContent()).toContain('team.member_added');
      await shot(page, 'first-page');

      await page.getByRole('button', { name: 'More', exact: true }).click();
      await expect.poll(() => entryRows(page).count(), wait).toBe(total);
      await expect.poll(() => page.getByRole('button', { name: 'More', exact: true }).count(), wait).toBe(0);
      await shot(page, 'all-pages');
      await expectAccessible(page, 'the team audit log, every page shown');

      // Filtered by target: the plain member's joining, and nothing else.
      await page.getByLabel('Target', { exact: true }).fill(member.id);
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await expect.poll(() => entryRows(page).count(), wait).toBe(1);
      expect(await entryRows(page).first().textContent()).toContain('team.member_added');
      expect(await entryRows(page).first().textContent()).toContain(member.id);
      // The export takes the applied filters: a CSV file with the header and that one entry.
      const [csvDownload] = await Promise.all([
        page.waitForEvent('download', wait),
        page.getByRole('button', { name: 'Export CSV' }).click(),
      ]);
      expect(csvDownload.suggestedFilename()).toBe(`audit-log-team-${team.id}.csv`);
      const csvRows = (await readFile(await csvDownload.path(), 'utf8')).trim().split('\n');
      expect(csvRows[0]).toBe(
        'id,occurred_at_millis,action,team_id,actor_type,actor_id,target_type,target_id,ip_address,user_agent,details',
      );
      expect(csvRows).toHaveLength(2);
      expect(csvRows[1]).toContain(`,team.member_added,${team.id},`);
      expect(csvRows[1]).toContain(member.id);
      const [ndjsonDownload] = await Promise.all([
        page.waitForEvent('download', wait),
        page.getByRole('button', { name: 'Export NDJSON' }).click(),
      ]);
      const exported = (await readFile(await ndjsonDownload.path(), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(exported).toEqual([expect.objectContaining({ action: 'team.member_added', team_id: team.id, target_id: member.id })]);
      await page.getByLabel('Action', { exact: true }).fill('team.member_removed');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await expect.poll(() => page.getByText('No entries match.').isVisible(), wait).toBe(true);
      await shot(page, 'filtered');
    } finally {
      await closePage(page);
    }

    // The member sees the team but not its log: the permission check answers, and no button appears.
    const memberPage = await env.browser.newPage();
    memberPage.setDefaultTimeout(wait.timeout);
    try {
      const permissionAnswered = memberPage.waitForResponse(
        (response) => response.url().includes('/team-permissions') && response.url().includes('update_team'),
        wait,
      );
      await openTeamsTab(memberPage, member);
      await expect.poll(() => memberPage.getByRole('list', { name: 'Your teams' }).textContent(), wait).toContain('Analytical Engines');
      expect((await permissionAnswered).status()).toBe(200);
      await expect.poll(() => memberPage.getByRole('button', { name: 'Leave' }).isVisible(), wait).toBe(true);
      expect(await memberPage.getByRole('button', { name: 'Audit log of Analytical Engines' }).count()).toBe(0);
      await shot(memberPage, 'member-without-log');
    } finally {
      await closePage(memberPage);
    }
  });
});
