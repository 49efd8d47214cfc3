import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * A user's contact channels on the user page in a real Chromium against the platform on real Postgres: an email
 * added (one another user signs in with refused with the server's message), a verification code sent (and the
 * already-verified one refused with its message), made primary, taken off sign-in, and a channel deleted
 * behind a confirmation; each change checked on the server; axe light and dark.
 */
const env = withDashboardInChromium();

type Channel = { value: string; is_primary: boolean; used_for_auth: boolean; is_verified: boolean };

describe('the dashboard in Chromium: contact channels', () => {
  it("adds, verifies, makes primary, takes off sign-in and deletes a user's emails", { timeout: 180_000 }, async () => {
    const shot = screenshots('dashboard-contact-channels');
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 800 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Channels Co', { newTeam: 'Channels team' });
    const { services } = env.platform.context;
    const project = (await services.projects.find(projectId))!;
    const tag = randomUUID().slice(0, 8);
    const home = `ada-${tag}@channels.test`;
    const work = `ada-work-${tag}@channels.test`;
    const taken = `grace-${tag}@channels.test`;
    const ada = await services.users.create(
      project,
      { display_name: 'Ada', primary_email: home, primary_email_verified: true, primary_email_auth_enabled: true },
      'server',
    );
    await services.users.create(
      project,
      { display_name: 'Grace', primary_email: taken, primary_email_verified: true, primary_email_auth_enabled: true },
      'server',
    );
    const channelsOnServer = async () => {
      const { admin } = await env.platform.apiHeadersFor(projectId);
      const response = await fetch(`${env.platform.url}/api/v1/contact-channels?user_id=${ada.id}`, { headers: admin });
      expect(response.status).toBe(200);
      const { items } = (await response.json()) as { items: Channel[] };
      return Object.fromEntries(items.map((channel) => [channel.value, [channel.is_primary, channel.used_for_auth, channel.is_verified]]));
    };

    await page.goto(`${env.platform.url}/dashboard/projects/${projectId}/users/${ada.id}`);
    const section = page.getByRole('region', { name: 'Contact channels' });
    const row = (email: string) => section.getByRole('listitem').filter({ hasText: email });
    await expect.poll(() => row(home).textContent(), { timeout: 15_000 }).toContain('primary · verified · used for sign-in');

    // An email another user signs in with: refused with the server's message, nothing added.
    await section.getByLabel('New email', { exact: true }).fill(taken);
    await section.getByRole('checkbox', { name: 'Used for sign-in' }).check();
    await section.getByRole('button', { name: 'Add email' }).click();
    await expect
      .poll(() => section.getByRole('alert').textContent())
      .toBe('The email is already an auth-enabled contact channel of another user.');
    expect(Object.keys(await channelsOnServer())).toEqual([home]);

    // A work email, used for sign-in.
    await section.getByLabel('New email', { exact: true }).fill(work);
    await section.getByRole('button', { name: 'Add email' }).click();
    await expect.poll(() => row(work).textContent()).toContain('unverified · used for sign-in');
    expect((await channelsOnServer())[work]).toEqual([false, true, false]);
    expect(await section.getByRole('alert').count()).toBe(0);

    // Verification: sent for the unverified one; the verified one is refused with the server's message.
    await row(work).getByRole('button', { name: 'Send verification code' }).click();
    await expect.poll(() => row(work).getByRole('status').textContent()).toBe(`Verification email sent to ${work}.`);
    await row(home).getByRole('button', { name: 'Send verification code' }).click();
    await expect
      .poll(() => row(home).getByRole('alert').textContent())
      .toBe('Verification email requested for an already-verified contact channel.');
    await shot(page, 'added');
    await expectAccessible(page, 'the user page with contact channels');

    // The work email made primary, then taken off sign-in.
    await row(work).getByRole('button', { name: 'Make primary' }).click();
    await expect.poll(async () => (await channelsOnServer())[work]).toEqual([true, true, false]);
    await expect.poll(() => row(work).textContent()).toContain('primary · unverified · used for sign-in');
    expect((await channelsOnServer())[home]![0]).toBe(false);
    await row(work).getByRole('button', { name: 'Stop using for sign-in' }).click();
    await expect.poll(async () => (await channelsOnServer())[work]).toEqual([true, false, false]);
    await expect.poll(() => row(work).getByRole('button', { name: 'Use for sign-in' }).count()).toBe(1);

    // The home email deleted behind a confirmation (Cancel keeps it).
    await row(home).getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this contact channel?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(Object.keys(await channelsOnServer()).sort()).toEqual([home, work].sort());
    await row(home).getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete channel' }).click();
    await expect.poll(() => row(home).count()).toBe(0);
    expect(Object.keys(await channelsOnServer())).toEqual([work]);
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await shot(page, 'deleted-dark');
    await expectAccessible(page, 'the user page after deleting a contact channel, dark');
  });
});
