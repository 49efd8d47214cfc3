import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshots } from '../../examples/demo/e2e/chromium.ts';
import { type SmtpSink, startSmtpSink } from '@gatehouse/testing/smtp-sink';
import { createProject, expectAccessible, signUpOwner, withDashboardInChromium } from './dashboard-platform.ts';

/**
 * The sent list and the outbox in a real Chromium against the platform on real Postgres and a real
 * SMTP sink: an email refused by the mail server shows its error in the sent list and is cancelled;
 * the outbox is filtered by status and paged by keyset; a queued email is changed and sent now (the
 * sink gets the new subject); a change that arrives after the email was sent shows
 * EMAIL_NOT_EDITABLE; delivery figures; axe in light and dark.
 */
const env = withDashboardInChromium();
let mail: SmtpSink;
beforeAll(async () => {
  mail = await startSmtpSink();
});
afterAll(async () => {
  await mail?.close();
});

const smtp = (port: number) => ({
  // The sink listens on loopback: a project's own SMTP server may be there only when it allows localhost.
  'domains.allowLocalhost': true,
  'emails.server': {
    isShared: false,
    host: '127.0.0.1',
    port,
    username: 'mailer',
    password: 'mailer-password',
    senderName: 'Outbox Co',
    senderEmail: 'news@outbox.test',
  },
});

describe('the dashboard in Chromium: sent emails and outbox', () => {
  it('shows a refused email and cancels it, pages the queued ones, changes one and sends it; a late change is refused', {
    timeout: 240_000,
  }, async () => {
    const shot = screenshots('dashboard-email-outbox');
    const page = await env.browser.newPage({ viewport: { width: 1024, height: 800 }, colorScheme: 'light' });
    await signUpOwner(page, env.platform.url, `owner-${randomUUID().slice(0, 8)}@dashboard.test`);
    const projectId = await createProject(page, 'Outbox Co', { newTeam: 'Outbox team' });
    const { context } = env.platform;
    const headers = await env.platform.apiHeadersFor(projectId);
    const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, as: 'server' | 'admin' = 'server') => {
      const response = await context.request({ method, url: `/api/v1${url}`, headers: headers[as], ...(payload ? { payload } : {}) });
      expect(response.status, response.text).toBe(200);
      return response.body;
    };
    const configure = (entries: object) =>
      call('PATCH', '/internal/config/override/project', { config_override_string: JSON.stringify(entries) }, 'admin');
    const project = (await context.services.projects.find(projectId))!;
    const newUser = (name: string) =>
      context.services.users.create(
        project,
        { primary_email: `${name}-${randomUUID().slice(0, 8)}@outbox.test`, display_name: name },
        'server',
      );
    const outboxRow = async (id: string) => call('GET', `/emails/outbox/${id}`);

    // A mail server that refuses: the attempt's error shows in the sent list.
    await configure(smtp(1));
    const refusedUser = await newUser('Refused');
    await call('POST', '/emails/send-email', { user_ids: [refusedUser.id], html: '<p>Hello</p>', subject: 'Refused hello' });
    await page.getByRole('link', { name: 'Emails', exact: true }).click();
    await page.getByRole('link', { name: 'Sent emails and outbox' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/dashboard/projects/${projectId}/email-outbox`);
    const sentTable = page.getByRole('table', { name: 'Sent emails' });
    const refusedRow = sentTable.getByRole('row').filter({ hasText: 'Refused hello' });
    await expect.poll(() => refusedRow.textContent(), { timeout: 30_000 }).toMatch(/not sent.*could not be delivered/i);
    await shot(page, 'refused-in-sent-list');
    await expectAccessible(page, 'the sent emails and outbox page');

    // Its page: queued for a retry with the last error; cancelled.
    await refusedRow.getByRole('link', { name: 'Refused hello' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Refused hello', level: 1 }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText(/^Last error: /).textContent()).toMatch(/could not be delivered through this email server/);
    await expectAccessible(page, 'an outbox email');
    await page.getByRole('button', { name: 'Cancel email' }).click();
    await expect.poll(() => page.getByText('Skipped: Cancelled.').isVisible()).toBe(true);
    const refusedId = new URL(page.url()).pathname.split('/').at(-1) as string;
    expect(await outboxRow(refusedId)).toMatchObject({ status: 'skipped', skipped_reason: 'Cancelled.' });

    // A test email through the server as the form has it: refused by port 1, taken by the sink.
    await page.getByRole('link', { name: 'Emails', exact: true }).click();
    const testForm = page.getByRole('form', { name: 'Send a test email' });
    await testForm.getByLabel('Test email recipient', { exact: true }).fill('owner@outbox.test');
    await testForm.getByRole('button', { name: 'Send test email' }).click();
    await expect
      .poll(() => testForm.getByRole('alert').textContent(), { timeout: 30_000 })
      .toMatch(/^The server refused it: The email could not be delivered through this email server/);
    await page.getByLabel('SMTP port', { exact: true }).fill(String(mail.port));
    await testForm.getByRole('button', { name: 'Send test email' }).click();
    await expect
      .poll(() => testForm.getByRole('status').textContent(), { timeout: 30_000 })
      .toBe('The server took the test email for owner@outbox.test.');
    await mail.waitFor((message) => message.to.includes('owner@outbox.test'), 30_000);
    await expectAccessible(page, 'the emails page with a test email sent');

    // The sink as the mail server: one email now, eleven queued for later.
    await configure(smtp(mail.port));
    const now = await newUser('Now');
    await call('POST', '/emails/send-email', { user_ids: [now.id], html: '<p>Now</p>', subject: 'Sent now' });
    await mail.waitFor((message) => message.to.includes(now.primary_email as string), 30_000);

    // An invitation by email from the users page: an untrusted link refused, then sent through the sink.
    await configure({ 'domains.allowLocalhost': true });
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('button', { name: 'Invite by email' }).click();
    const invite = page.getByRole('dialog', { name: 'Invite someone by email' });
    await invite.getByLabel('Invitee email', { exact: true }).fill('invitee@outbox.test');
    await invite.getByLabel('Link to', { exact: true }).fill('https://untrusted.example/sign-up');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await expect
      .poll(() => invite.getByRole('alert').textContent())
      .toBe('A callback/redirect URL is not on the project trusted-domain list (and is not localhost while localhost is allowed).');
    await invite.getByLabel('Link to', { exact: true }).fill(`${env.platform.url}/handler/sign-up`);
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await expect.poll(() => invite.getByRole('status').textContent()).toBe('Invitation sent to invitee@outbox.test.');
    await expectAccessible(page, 'the invitation dialog');
    const invitation = await mail.waitFor((message) => message.to.includes('invitee@outbox.test'), 30_000);
    expect(invitation.text).toContain(`${env.platform.url}/handler/sign-up`);
    await invite.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('link', { name: 'Emails', exact: true }).click();
    const later = await Promise.all(Array.from({ length: 11 }, (_, index) => newUser(`later${index}`)));
    const scheduled = Date.now() + 3_600_000;
    await call('POST', '/emails/send-email', {
      user_ids: later.map((user) => user.id),
      html: '<p>Later</p>',
      subject: 'Later news',
      scheduled_at_millis: scheduled,
    });

    await page.getByRole('link', { name: 'Sent emails and outbox' }).click();
    await expect
      .poll(() => sentTable.getByRole('row').filter({ hasText: 'Sent now' }).textContent())
      .toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    await expect.poll(async () => Number(await page.getByRole('definition').first().textContent())).toBeGreaterThanOrEqual(1);

    // The queued ones, ten a page by keyset, the filter and cursor in the URL.
    const outbox = page.getByRole('table', { name: 'Outbox' });
    const pager = page.getByRole('navigation', { name: 'Pages of the outbox' });
    await page.getByLabel('Status', { exact: true }).selectOption('queued');
    await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('queued');
    await expect.poll(() => outbox.getByRole('row').count()).toBe(11);
    await pager.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('cursor')).toMatch(/^[0-9a-f-]{36}$/);
    await expect.poll(() => outbox.getByRole('row').count()).toBe(2);
    await expect.poll(() => pager.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    await shot(page, 'queued-second-page');
    await pager.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(() => outbox.getByRole('row').count()).toBe(11);
    const queuedTo = async (row: number) => (await outbox.getByRole('row').nth(row).getByRole('cell').first().textContent()) as string;
    const [firstTo, secondTo] = [await queuedTo(1), await queuedTo(2)];

    // One is changed and sent now: the sink gets the new subject and content.
    await outbox.getByRole('row').nth(1).getByRole('link', { name: 'Later news' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Later news', level: 1 }).isVisible()).toBe(true);
    await page.getByLabel('Subject', { exact: true }).fill('Changed news');
    await page.getByLabel('HTML', { exact: true }).fill('<p>Changed content</p>');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => page.getByText('Saved.', { exact: true }).isVisible()).toBe(true);
    const changedId = new URL(page.url()).pathname.split('/').at(-1) as string;
    expect(await outboxRow(changedId)).toMatchObject({ status: 'queued', subject: 'Changed news', html: '<p>Changed content</p>' });
    await shot(page, 'changed');
    await page.getByRole('button', { name: 'Send now' }).click();
    const changed = await mail.waitFor((message) => message.to.includes(firstTo), 30_000);
    expect(changed.subject).toBe('Changed news');
    expect(changed.html).toContain('Changed content');
    await expect.poll(() => page.getByRole('definition').first().textContent(), { timeout: 30_000 }).toContain('sent');
    await expect.poll(() => page.getByText('An email that is sending or sent cannot be changed.').isVisible()).toBe(true);

    // Another is sent by the backend while its page is open: the owner's change is refused.
    await page.getByRole('link', { name: 'Sent emails and outbox' }).click();
    await outbox.getByRole('row').filter({ hasText: secondTo }).getByRole('link', { name: 'Later news' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Save changes' }).isVisible()).toBe(true);
    const lateId = new URL(page.url()).pathname.split('/').at(-1) as string;
    await call('PATCH', `/emails/outbox/${lateId}`, { status: 'queued' });
    await mail.waitFor((message) => message.to.includes(secondTo), 30_000);
    await expect.poll(async () => (await outboxRow(lateId)).status).toBe('sent');
    await page.getByLabel('Subject', { exact: true }).fill('Too late');
    await page.getByLabel('HTML', { exact: true }).fill('<p>Too late</p>');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: 'cannot be edited' }).textContent())
      .toBe('Outbox email cannot be edited in its current status.');
    await expect.poll(() => page.getByText('An email that is sending or sent cannot be changed.').isVisible()).toBe(true);
    expect(await outboxRow(lateId)).toMatchObject({ status: 'sent', subject: 'Later news' });
    await shot(page, 'not-editable');
    await expectAccessible(page, 'a sent outbox email');

    await page.getByRole('link', { name: 'Sent emails and outbox' }).click();
    await expect.poll(() => sentTable.getByRole('row').filter({ hasText: 'Changed news' }).count()).toBe(1);
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await shot(page, 'outbox-dark');
    await expectAccessible(page, 'the sent emails and outbox page in the dark theme');
    await page.close();
  });
});
