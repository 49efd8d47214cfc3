import { randomUUID } from 'node:crypto';
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * Team member profiles on a team's page in a real Chromium against the platform on real Postgres: a member's
 * team name and image edited inline from the keyboard (the form opens focused, Escape cancels and gives the
 * focus back), shown before the server answers (optimistic) and then stored; a change the server refuses (an
 * image URL that is not http(s) or a data URL) is put back with the server's message verbatim; clearing the
 * team name falls back to the user's; axe light and dark at 1024 px.
 */
const env = withDashboardInChromium();

/** A 1×1 PNG as a data URL (what an owner pastes for an image without hosting it). */
const dot = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/**
 * Holds member-profile PATCHes while a hold is on (to see the page before the server answers). The route is
 * installed once, before the page loads anything: installing it mid-test turns interception on while the page
 * runs, and under load a PATCH sent right after could pass unheld (seen once in CI).
 */
async function profilePatchGate(page: Page): Promise<{ hold: () => () => Promise<void> }> {
  let held: Promise<void> | undefined;
  let passed: Promise<unknown>[] = [];
  await page.route('**/api/v1/team-member-profiles/**', async (route: Route) => {
    if (route.request().method() !== 'PATCH' || !held) return route.fallback();
    const continued = held.then(() => route.continue());
    passed.push(continued);
    await continued;
  });
  return {
    hold: () => {
      let release: () => void = () => undefined;
      held = new Promise<void>((resolve) => {
        release = resolve;
      });
      return async () => {
        held = undefined;
        release();
        await Promise.all(passed);
        passed = [];
      };
    },
  };
}

describe('the dashboard in Chromium: team member profiles', () => {
  it('edits a member’s team name and image inline, at once, and puts back what the server refuses', { timeout: 180_000 }, async () => {
    const shot = screenshots('dashboard-team-member-profiles');
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 800 }, colorScheme: 'light' });
    const patches = await profilePatchGate(page);
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Profiles Co', { newTeam: 'Profiles team' });
    const { services } = env.platform.context;
    const graceEmail = `grace-${randomUUID().slice(0, 8)}@profiles.test`;
    await services.users.create(
      (await services.projects.find(projectId))!,
      { display_name: 'Grace', primary_email: graceEmail, primary_email_verified: true },
      'server',
    );
    const headers = await env.platform.apiHeadersFor(projectId);

    await page.getByRole('link', { name: 'Teams', exact: true }).click();
    await page.getByLabel('Team name', { exact: true }).fill('Design');
    await page.getByRole('button', { name: 'Create team' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Design');
    const teamId = new URL(page.url()).pathname.split('/').at(-1)!;
    await page.getByLabel('Add member (email or user id)', { exact: true }).fill(graceEmail);
    await page.getByRole('button', { name: 'Add member' }).click();
    const members = page.getByRole('list', { name: 'Team members' });
    await expect.poll(() => members.getByRole('link', { name: 'Grace', exact: true }).isVisible()).toBe(true);
    const userId = new URL(
      (await members.getByRole('link', { name: 'Grace', exact: true }).getAttribute('href'))!,
      env.platform.url,
    ).pathname
      .split('/')
      .at(-1)!;
    const profileUrl = `${env.platform.url}/api/v1/team-member-profiles/${teamId}/${userId}`;
    const stored = async () => {
      const response = await fetch(profileUrl, { headers: headers.admin });
      expect(response.status).toBe(200);
      return (await response.json()) as { display_name: string | null; profile_image_url: string | null };
    };
    expect(await stored()).toMatchObject({ display_name: null, profile_image_url: null });

    // Opened from the keyboard: the name field has the focus; Escape cancels and gives it back to the button.
    const edit = members.getByRole('button', { name: 'Edit team profile of Grace' });
    await edit.focus();
    await page.keyboard.press('Enter');
    const form = members.getByRole('form', { name: 'Team profile of Grace' });
    await expect
      .poll(() => form.getByLabel('Team display name', { exact: true }).evaluate((input) => input === document.activeElement))
      .toBe(true);
    await page.keyboard.type('Typed then dropped');
    await page.keyboard.press('Escape');
    await expect.poll(() => form.count()).toBe(0);
    await expect.poll(() => edit.evaluate((button) => button === document.activeElement)).toBe(true);
    expect((await stored()).display_name).toBe(null);

    // Saved with Enter: the row shows the new name and image while the server is still answering, then it is stored.
    await page.keyboard.press('Enter');
    await page.keyboard.type('Grace (Design lead)');
    await page.keyboard.press('Tab');
    await page.keyboard.type(dot);
    const release = patches.hold();
    await page.keyboard.press('Enter');
    const renamed = members.getByRole('link', { name: 'Grace (Design lead)', exact: true });
    await expect.poll(() => renamed.isVisible()).toBe(true);
    expect(await members.locator('img.dash-avatar').getAttribute('src')).toBe(dot);
    expect((await stored()).display_name).toBe(null);
    await release();
    await expect
      .poll(async () => await stored())
      .toEqual(expect.objectContaining({ display_name: 'Grace (Design lead)', profile_image_url: dot }));
    await expect.poll(() => members.getByRole('status').count()).toBe(0);
    expect(await members.getByText('(user: Grace)').isVisible()).toBe(true);
    await shot(page, 'saved');
    await expectAccessible(page, 'the team page with a member profile');

    // Refused (an image URL that is neither http(s) nor a data URL): shown at once, put back, the server's words.
    const refusedBody = { display_name: 'Should not stick', profile_image_url: 'ftp://images.test/grace.png' };
    const direct = await fetch(profileUrl, { method: 'PATCH', headers: headers.admin, body: JSON.stringify(refusedBody) });
    expect(direct.status).toBe(400);
    const serverMessage = ((await direct.json()) as { error: string }).error;
    await members.getByRole('button', { name: 'Edit team profile of Grace (Design lead)' }).click();
    const form2 = members.getByRole('form', { name: 'Team profile of Grace (Design lead)' });
    await form2.getByLabel('Team display name', { exact: true }).fill(refusedBody.display_name);
    await form2.getByLabel('Team profile image URL', { exact: true }).fill(refusedBody.profile_image_url);
    const releaseRefused = patches.hold();
    await form2.getByRole('button', { name: 'Save profile' }).click();
    await expect.poll(() => members.getByRole('link', { name: 'Should not stick', exact: true }).isVisible()).toBe(true);
    await releaseRefused();
    await expect.poll(() => members.getByRole('alert').textContent()).toBe(serverMessage);
    await expect.poll(() => renamed.isVisible()).toBe(true);
    expect(await members.getByRole('link', { name: 'Should not stick' }).count()).toBe(0);
    expect(await stored()).toMatchObject({ display_name: 'Grace (Design lead)', profile_image_url: dot });
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await shot(page, 'refused-dark');
    await expectAccessible(page, 'the team page with a refused profile change, dark');

    // Cleared: the team name falls back to the user's, the image to none; it survives a reload.
    await members.getByRole('button', { name: 'Edit team profile of Grace (Design lead)' }).click();
    const form3 = members.getByRole('form', { name: 'Team profile of Grace (Design lead)' });
    await expect.poll(() => members.getByRole('alert').count()).toBe(0);
    await form3.getByLabel('Team display name', { exact: true }).fill('');
    await form3.getByLabel('Team profile image URL', { exact: true }).fill('');
    await form3.getByRole('button', { name: 'Save profile' }).click();
    await expect.poll(async () => await stored()).toEqual(expect.objectContaining({ display_name: null, profile_image_url: null }));
    await page.reload();
    await expect.poll(() => members.getByRole('link', { name: 'Grace', exact: true }).isVisible()).toBe(true);
    expect(await members.locator('img.dash-avatar').count()).toBe(0);
    expect(await members.getByText('(user:').count()).toBe(0);
  });
});
