import { describe, expect, it } from 'vitest';
import { screenshots } from './chromium.ts';
import { createPasswordUser, greetingOf, submitPasswordSignIn, withDemoInChromium } from './e2e-environment.ts';

/**
 * Team invitations in a real Chromium: the creator of a team invites a second user by email (real
 * SMTP), who accepts on the team-invitation page and then sees the team.
 */
const env = withDemoInChromium();

describe('team invitations in Chromium', () => {
  it('invite by email, accept on the invitation page, see the team', { timeout: 120_000 }, async () => {
    const shot = screenshots('team-invitation');
    const owner = await createPasswordUser(env.platform, 'owner');
    const invitee = await createPasswordUser(env.platform, 'invitee');

    const ownerPage = await (await env.browser.newContext()).newPage();
    await ownerPage.goto(`${env.platform.url}/handler/sign-in`);
    await submitPasswordSignIn(ownerPage, owner);
    await expect.poll(() => greetingOf(ownerPage)).toBe(`Hello, ${owner.email}`);
    await ownerPage.goto(`${env.platform.url}/handler/account-settings`);
    await ownerPage.getByRole('tab', { name: 'Teams' }).click();
    await ownerPage.getByLabel('Team name', { exact: true }).fill('Difference Engines');
    await ownerPage.getByRole('button', { name: 'Create team' }).click();
    await ownerPage.getByLabel('Invite to Difference Engines', { exact: true }).fill(invitee.email);
    await ownerPage.getByRole('button', { name: 'Send invitation' }).click();
    await expect.poll(() => ownerPage.getByRole('status').textContent()).toBe(`Invitation sent to ${invitee.email}.`);
    await shot(ownerPage, 'invitation-sent');

    const email = await env.platform.mail.waitFor(
      (message) => message.to.includes(invitee.email) && message.text.includes('/handler/team-invitation'),
    );
    const link = email.text.match(/https?:\/\/\S+\/handler\/team-invitation\?code=[A-Za-z0-9]+/)?.[0];
    expect(link, email.text).toBeDefined();

    // The invitee opens the link signed out, signs in, comes back, and joins.
    const inviteePage = await (await env.browser.newContext()).newPage();
    // Wait for the invitation's own prompt: before its chunk has loaded, the only "Sign in" link on the
    // page is the app header's, which does not come back here (under load a click landed on it).
    await inviteePage.goto(link!);
    const prompt = inviteePage.getByText('Sign in to see and accept this invitation.');
    await expect.poll(() => prompt.isVisible()).toBe(true);
    await prompt.locator('..').getByRole('link', { name: 'Sign in' }).click();
    await submitPasswordSignIn(inviteePage, invitee);
    await expect.poll(() => new URL(inviteePage.url()).pathname).toBe('/handler/team-invitation');
    await expect.poll(() => inviteePage.getByText('You are invited to join').isVisible()).toBe(true);
    await shot(inviteePage, 'invitation');
    await inviteePage.getByRole('button', { name: 'Join Difference Engines' }).click();
    await expect.poll(() => inviteePage.getByRole('status').textContent()).toBe('You joined Difference Engines.');
    await shot(inviteePage, 'joined');

    await inviteePage.goto(`${env.platform.url}/handler/account-settings`);
    await inviteePage.getByRole('tab', { name: 'Teams' }).click();
    await expect.poll(() => inviteePage.getByRole('list', { name: 'Your teams' }).textContent()).toContain('Difference Engines');
    await expect
      .poll(() => inviteePage.getByLabel('Team', { exact: true }).locator('option').allTextContents())
      .toContain('Difference Engines');
    await shot(inviteePage, 'member-sees-team');
  });
});
