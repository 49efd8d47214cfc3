import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * Teams and permissions in a real Chromium against the platform on real Postgres: define team and
 * project permissions (a containment cycle refused and shown), create a team, add a member by email,
 * grant them a permission (it reaches the server and survives a reload), invite and revoke, delete the team.
 */
const env = withDashboardInChromium();

describe('the dashboard in Chromium: teams and permissions', () => {
  it('defines permissions, refuses a cycle, and runs a team with members, grants and invitations', { timeout: 180_000 }, async () => {
    const shot = screenshots('dashboard-teams');
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Teams Co', { newTeam: 'Teams team' });
    const project = (await env.platform.context.services.projects.find(projectId))!;
    const graceEmail = `grace-${randomUUID().slice(0, 8)}@teams.test`;
    const grace = await env.platform.context.services.users.create(
      project,
      { display_name: 'Grace', primary_email: graceEmail, primary_email_verified: true },
      'server',
    );

    // Permissions: two team permissions, one containing the other; the reverse would be a cycle.
    await page.getByRole('link', { name: 'Permissions', exact: true }).click();
    const team = page.getByRole('region', { name: 'Team permissions' });
    for (const id of ['read_docs', 'write_docs']) {
      await team.getByLabel('New team permission id', { exact: true }).fill(id);
      await team.getByRole('button', { name: 'Create permission' }).click();
      await expect.poll(() => team.getByRole('rowheader', { name: id }).count()).toBe(1);
    }
    const writeRow = team.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'write_docs' }) });
    const readRow = team.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'read_docs' }) });
    await writeRow.getByRole('checkbox', { name: 'read_docs' }).check();
    await expect.poll(() => writeRow.getByRole('checkbox', { name: 'read_docs' }).isChecked()).toBe(true);
    await readRow.getByRole('checkbox', { name: 'write_docs' }).click();
    await expect.poll(() => readRow.getByRole('alert').textContent()).toMatch(/would contain itself/);
    await expect.poll(() => readRow.getByRole('checkbox', { name: 'write_docs' }).isChecked()).toBe(false);
    await shot(page, 'cycle-refused');
    await expectAccessible(page, 'the permissions page');
    const projectScope = page.getByRole('region', { name: 'Project permissions' });
    await projectScope.getByLabel('New project permission id', { exact: true }).fill('admin_panel');
    await projectScope.getByRole('button', { name: 'Create permission' }).click();
    await expect.poll(() => projectScope.getByRole('rowheader', { name: 'admin_panel' }).count()).toBe(1);

    // A team with Grace as a member, granted write_docs.
    await page.getByRole('link', { name: 'Teams', exact: true }).click();
    await page.getByLabel('Team name', { exact: true }).fill('Engineering');
    await page.getByRole('button', { name: 'Create team' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Engineering');
    const teamId = new URL(page.url()).pathname.split('/').at(-1)!;
    await page.getByLabel('Add member (email or user id)', { exact: true }).fill('nobody@teams.test');
    await page.getByRole('button', { name: 'Add member' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('No user has the email nobody@teams.test.');
    await page.getByLabel('Add member (email or user id)', { exact: true }).fill(graceEmail);
    await page.getByRole('button', { name: 'Add member' }).click();
    const permissionsOfGrace = page.getByRole('group', { name: 'Permissions of Grace' });
    await expect.poll(() => permissionsOfGrace.getByRole('checkbox', { name: 'write_docs' }).isEnabled()).toBe(true);
    await permissionsOfGrace.getByRole('checkbox', { name: 'write_docs' }).click(); // the box follows the optimistic update a tick later; the grant is checked below
    await expect
      .poll(async () => {
        const granted = await env.platform.context.services.permissions.listTeamGrants(project.id, {
          teamId,
          userId: grace.id,
          recursive: false,
        });
        return granted.map((permission) => permission.id);
      })
      .toContain('write_docs');
    await page.reload();
    await expect
      .poll(() => page.getByRole('group', { name: 'Permissions of Grace' }).getByRole('checkbox', { name: 'write_docs' }).isChecked())
      .toBe(true);

    // Invitations: sent, listed, revoked.
    await page.getByLabel('Invite by email', { exact: true }).fill('newcomer@teams.test');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await expect.poll(() => page.getByText('Invitation sent.').isVisible()).toBe(true);
    const invitations = page.getByRole('region', { name: 'Invitations' });
    await expect.poll(() => invitations.getByText('newcomer@teams.test').isVisible()).toBe(true);
    await shot(page, 'team-page');
    await expectAccessible(page, 'the team page');
    await invitations.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => invitations.getByText('No open invitations.').isVisible()).toBe(true);

    // The list, then deleting the team.
    await page.getByRole('link', { name: 'Teams', exact: true }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Engineering' }).isVisible()).toBe(true);
    await expectAccessible(page, 'the teams list');
    await page.getByRole('link', { name: 'Engineering' }).click();
    await page.getByRole('button', { name: 'Delete team' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete team' }).click();
    await expect.poll(() => page.getByText('No teams yet.').isVisible()).toBe(true);
  });
});
