import { smtpFailures } from '../email/smtp-guard.ts';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectPlain } from '@gatehouse/testing/expect-response';
import { type SmtpSink, startSmtpSink } from '@gatehouse/testing/smtp-sink';
import { withTestContext } from '@gatehouse/testing/test-context';
import { readEmailDeliverySettings } from '../email/email.service.ts';
import { marketingCategoryId } from '../notification-preferences/notification-categories.ts';

/**
 * The outbox endpoints: `GET /emails/outbox` (paged, by status), `GET/PATCH /emails/outbox/{id}`
 * (`EMAIL_NOT_EDITABLE` once sent; resend and cancel), `GET /internal/emails` (the sent list) and
 * `GET /emails/delivery-info`, against a real SMTP sink.
 */
let sink: SmtpSink;
// One attempt: a refused email fails at once (no retry due 10 s later on the run's shared database).
const env = withTestContext({ settings: { email: { delivery: readEmailDeliverySettings({ EMAIL_MAX_ATTEMPTS: '1' }) } } });
let project: Awaited<ReturnType<typeof env.context.createProject>>;
beforeAll(async () => {
  sink = await startSmtpSink();
  project = await env.context.createProject({
    // The sink listens on loopback: a project's own SMTP server may be there only when it allows localhost.
    'domains.allowLocalhost': true,
    'emails.server': {
      isShared: false,
      host: '127.0.0.1',
      port: sink.port,
      username: 'u',
      password: 'p',
      senderName: 'Acme',
      senderEmail: 'a@acme.test',
    },
  });
});
afterAll(() => sink?.close());

const call = (method: 'GET' | 'PATCH' | 'POST', url: string, payload?: object, headers: Record<string, string> = project.headers.server) =>
  env.context.request({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
const newUser = (name: string) =>
  env.context.services.users.create(
    project.project,
    { primary_email: `${name}-${randomUUID().slice(0, 8)}@example.com`, display_name: name },
    'server',
  );

describe('outbox', () => {
  it('lists, reads, edits, resends and cancels outbox emails; a sent one is not editable', async () => {
    const [ann, bob, cy] = [await newUser('Ann'), await newUser('Bob'), await newUser('Cy')];
    await env.context.services.notificationPreferences.update(project.project.id, cy.id, marketingCategoryId, false);
    const scheduled = Date.now() + 3_600_000;
    const sent = await call('POST', '/emails/send-email', { user_ids: [ann.id], html: '<p>Now</p>', subject: 'Now' });
    expect(sent.status).toBe(200);
    const later = await call('POST', '/emails/send-email', {
      user_ids: [bob.id, cy.id],
      html: '<p>Later</p>',
      subject: 'Later',
      notification_category_name: 'Marketing',
      scheduled_at_millis: scheduled,
    });
    expect(later.status).toBe(200);
    await sink.waitFor((message) => message.to.includes(ann.primary_email as string));

    // Newest first, two per page.
    const first = await call('GET', '/emails/outbox?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.is_paginated).toBe(true);
    const rest = await call('GET', `/emails/outbox?limit=2&cursor=${first.body.pagination.next_cursor}`);
    expect(rest.status).toBe(200);
    const all = [...first.body.items, ...rest.body.items] as Array<{ id: string; to: string[]; status: string }>;
    expect(new Set(all.map((entry) => entry.id)).size).toBe(3);
    expect(rest.body.pagination.next_cursor).toBeNull();
    const toBob = all.find((entry) => entry.to[0] === bob.primary_email);
    const toCy = all.find((entry) => entry.to[0] === cy.primary_email);
    expect(toBob).toMatchObject({ status: 'queued', subject: 'Later', html: '', scheduled_at_millis: scheduled, sent_at_millis: null });
    expect(toCy).toMatchObject({ status: 'skipped', skipped_reason: 'The user turned Marketing emails off.' });
    await expect
      .poll(async () => (await call('GET', '/emails/outbox?status=sent')).body.items.map((entry: { to: string[] }) => entry.to[0]))
      .toEqual([ann.primary_email]);
    const toAnn = (await call('GET', '/emails/outbox?status=sent')).body.items[0];
    expect(toAnn).toMatchObject({ status: 'sent', simple_status: 'ok', subject: 'Now', attempts: 1, error: null, user_id: ann.id });
    expect(toAnn.html).toContain('<p>Now</p>');

    // The simple status: queued and sending are in progress, sent and skipped ok, failed an error (see the second test).
    expect(toBob).toMatchObject({ simple_status: 'in-progress' });
    expect(toCy).toMatchObject({ simple_status: 'ok' });
    const bySimpleStatus = async (query: string) =>
      ((await call('GET', `/emails/outbox?${query}`)).body.items as Array<{ id: string }>).map((entry) => entry.id).sort();
    expect(await bySimpleStatus('simple_status=in-progress')).toEqual([toBob?.id]);
    expect(await bySimpleStatus('simple_status=ok')).toEqual([toAnn.id, toCy?.id].sort());
    expect(await bySimpleStatus('simple_status=error')).toEqual([]);
    expect(await bySimpleStatus('simple_status=ok&status=skipped')).toEqual([toCy?.id]);
    expect(await bySimpleStatus('simple_status=in-progress&status=sent')).toEqual([]);
    const okPage = await call('GET', '/emails/outbox?simple_status=ok&limit=1');
    const okNext = await call('GET', `/emails/outbox?simple_status=ok&limit=1&cursor=${okPage.body.pagination.next_cursor}`);
    expect([...okPage.body.items, ...okNext.body.items].map((entry: { id: string }) => entry.id).sort()).toEqual(
      [toAnn.id, toCy?.id].sort(),
    );
    expect(okNext.body.pagination.next_cursor).toBeNull();

    const read = await call('GET', `/emails/outbox/${toBob?.id}`, undefined, project.headers.admin);
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(toBob?.id);

    // A sent email cannot be changed.
    expectError(await call('PATCH', `/emails/outbox/${toAnn.id}`, { subject: 'Too late' }), 400, 'EMAIL_NOT_EDITABLE', {
      email_id: toAnn.id,
      status: 'sent',
    });
    // A queued one not rendered yet needs html with its new content.
    expectError(await call('PATCH', `/emails/outbox/${toBob?.id}`, { subject: 'Changed' }), 400, 'SCHEMA_ERROR');
    // Edited and sent now.
    const edited = await call('PATCH', `/emails/outbox/${toBob?.id}`, { subject: 'Changed', html: '<p>Changed</p>', status: 'queued' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ subject: 'Changed', html: '<p>Changed</p>' });
    const message = await sink.waitFor((candidate) => candidate.to.includes(bob.primary_email as string));
    expect(message.subject).toBe('Changed');
    expect(message.html).toContain('<p>Changed</p>');

    // Cancel a queued one.
    const dee = await newUser('Dee');
    await call('POST', '/emails/send-email', { user_ids: [dee.id], html: '<p>x</p>', subject: 'x', scheduled_at_millis: scheduled });
    const queued = (await call('GET', '/emails/outbox?status=queued')).body.items[0];
    const cancelled = await call('PATCH', `/emails/outbox/${queued.id}`, { status: 'skipped' });
    expect(cancelled.body).toMatchObject({ status: 'skipped', skipped_reason: 'Cancelled.' });

    expectPlain(await call('GET', `/emails/outbox/${randomUUID()}`), 404);
    expectPlain(await call('PATCH', `/emails/outbox/${randomUUID()}`, { status: 'queued' }), 404);
    expectError(await call('GET', '/emails/outbox?cursor=nope'), 400, 'SCHEMA_ERROR');
    expectError(await call('GET', '/emails/outbox?status=lost'), 400, 'SCHEMA_ERROR');
    expectError(await call('GET', '/emails/outbox?simple_status=in_progress'), 400, 'SCHEMA_ERROR');
    expectError(await call('GET', '/emails/outbox?simple_status=OK'), 400, 'SCHEMA_ERROR');
  });

  it('lists the sent emails with their errors and counts them in delivery-info', async () => {
    const user = await newUser('Eve');
    await call('POST', '/emails/send-email', { user_ids: [user.id], html: '<p>Hi</p>', subject: 'Counted' });
    await sink.waitFor((message) => message.to.includes(user.primary_email as string));
    await expect
      .poll(async () =>
        (await call('GET', '/internal/emails', undefined, project.headers.admin)).body.items.map(
          (item: { subject: string }) => item.subject,
        ),
      )
      .toContain('Counted');
    const listed = await call('GET', '/internal/emails', undefined, project.headers.admin);
    expect(listed.status).toBe(200);
    const item = listed.body.items.find((entry: { to: string[] }) => entry.to[0] === user.primary_email);
    expect(item).toMatchObject({ subject: 'Counted', sent_at_millis: expect.any(Number) });
    expect(item.error).toBeUndefined();

    const info = await call('GET', '/emails/delivery-info');
    expect(info.status).toBe(200);
    expect(info.body.stats.hour.sent).toBeGreaterThanOrEqual(1);
    expect(info.body.stats.month.sent).toBeGreaterThanOrEqual(info.body.stats.hour.sent);
    expect(info.body.stats.hour).toMatchObject({ bounced: 0, marked_as_spam: 0 });
    expect(info.body.capacity).toMatchObject({ boost_multiplier: 1, penalty_factor: 1, is_boost_active: false, boost_expires_at: null });
    expect(info.body.capacity.rate_per_second).toBeGreaterThan(0);

    // A failing mail server: the row's error shows in the sent list.
    const broken = await env.context.createProject({
      // The sink listens on loopback: a project's own SMTP server may be there only when it allows localhost.
      'domains.allowLocalhost': true,
      'emails.server': {
        isShared: false,
        host: '127.0.0.1',
        port: 1,
        username: 'u',
        password: 'p',
        senderName: 'B',
        senderEmail: 'b@acme.test',
      },
    });
    const victim = await env.context.services.users.create(broken.project, { primary_email: `v-${randomUUID()}@example.com` }, 'server');
    await call('POST', '/emails/send-email', { user_ids: [victim.id], html: '<p>x</p>', subject: 'Refused' }, broken.headers.server);
    await expect
      .poll(async () => (await call('GET', '/internal/emails', undefined, broken.headers.admin)).body.items[0]?.error, { timeout: 15_000 })
      .toBe(smtpFailures.notDelivered);
    expect((await call('GET', '/internal/emails', undefined, broken.headers.admin)).body.items[0]).toMatchObject({
      subject: 'Refused',
      sent_at_millis: null,
    });
    // One attempt in this file's context (EMAIL_MAX_ATTEMPTS=1): the row failed, its simple status is error.
    const failed = await call('GET', '/emails/outbox?simple_status=error', undefined, broken.headers.server);
    expect(failed.body.items).toHaveLength(1);
    expect(failed.body.items[0]).toMatchObject({ status: 'failed', simple_status: 'error', subject: 'Refused', attempts: 1 });
    expect(failed.body.items[0].error).toBe(smtpFailures.notDelivered);
    expect((await call('GET', '/emails/outbox?simple_status=in-progress', undefined, broken.headers.server)).body.items).toEqual([]);
  });

  it('deleting a project deletes its outbox rows (a trigger on project, not a foreign key per outbox row)', async () => {
    const doomed = await env.context.createProject({
      // The sink listens on loopback: a project's own SMTP server may be there only when it allows localhost.
      'domains.allowLocalhost': true,
      'emails.server': {
        isShared: false,
        host: '127.0.0.1',
        port: sink.port,
        username: 'u',
        password: 'p',
        senderName: 'D',
        senderEmail: 'd@acme.test',
      },
    });
    const users = [
      await env.context.services.users.create(doomed.project, { primary_email: `d1-${randomUUID()}@example.com` }, 'server'),
      await env.context.services.users.create(doomed.project, { primary_email: `d2-${randomUUID()}@example.com` }, 'server'),
    ];
    const later = Date.now() + 3_600_000;
    const answer = await call(
      'POST',
      '/emails/send-email',
      { user_ids: users.map((user) => user.id), html: '<p>Later</p>', subject: 'Later', scheduled_at_millis: later },
      doomed.headers.server,
    );
    expect(answer.status).toBe(200);
    const listed = () => env.context.services.email.listOutbox(doomed.project.id, { limit: 10 });
    expect((await listed()).map((row) => row.status)).toEqual(['queued', 'queued']);
    // Another project's rows stay.
    const others = (await env.context.services.email.listOutbox(project.project.id, { limit: 100 })).length;
    expect(others).toBeGreaterThan(0);
    await env.context.services.projects.delete(doomed.project.id);
    expect(await listed()).toEqual([]);
    expect(await env.context.services.email.listOutbox(project.project.id, { limit: 100 })).toHaveLength(others);
  });
});
